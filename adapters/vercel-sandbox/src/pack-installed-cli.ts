import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CliPackage } from './sandbox/sandbox-recipe.js';

/** The packages the CLI needs at run time, in dependency order. */
export const CLI_PACKAGES = [
  '@seekframe/composition',
  '@seekframe/runtime',
  '@seekframe/engine',
  '@seekframe/producer',
  '@seekframe/player',
  'seekframe',
] as const;

/**
 * `npm pack` of the Seekframe CLI and its @seekframe packages exactly as installed where `from`
 * resolves them: in a project, the published versions in its node_modules; in the Seekframe
 * monorepo, the built workspaces. The sandbox then runs the code this deployment was built with.
 */
export async function packInstalledCli(from: string): Promise<CliPackage[]> {
  const resolveFrom = createRequire(path.join(path.resolve(from), 'noop.js'));
  const cliDir = path.dirname(resolveFrom.resolve('seekframe/package.json'));
  // The CLI's own dependencies, found from the CLI's folder as Node would.
  const fromCli = createRequire(path.join(cliDir, 'package.json'));
  const dirs = CLI_PACKAGES.map((name) => (name === 'seekframe' ? cliDir : path.dirname(fromCli.resolve(`${name}/package.json`))));
  const out = await mkdtemp(path.join(tmpdir(), 'seekframe-cli-pack-'));
  try {
    await promisify(execFile)('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', out, ...dirs], {
      cwd: out,
      maxBuffer: 16 * 1024 * 1024,
    });
    const names = (await readdir(out)).filter((name) => name.endsWith('.tgz')).sort();
    return Promise.all(names.map(async (fileName) => ({ fileName, content: new Uint8Array(await readFile(path.join(out, fileName))) })));
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
