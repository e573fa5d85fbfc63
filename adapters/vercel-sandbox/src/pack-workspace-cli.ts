import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { CliPackage } from './sandbox/sandbox-recipe.js';

/** The workspace packages the CLI needs at run time, in dependency order. */
export const CLI_WORKSPACES = ['core/composition', 'core/runtime', 'core/engine', 'core/producer', 'core/player', 'core/cli'] as const;

/**
 * `npm pack` of the CLI and the workspace packages it depends on, from a built checkout: the
 * sandbox installs exactly the code being deployed, not a release from the registry.
 */
export async function packWorkspaceCli(repoRoot: string): Promise<CliPackage[]> {
  const out = await mkdtemp(path.join(tmpdir(), 'seekframe-cli-pack-'));
  try {
    const args = ['pack', '--silent', '--pack-destination', out, ...CLI_WORKSPACES.flatMap((ws) => ['-w', ws])];
    await promisify(execFile)('npm', args, { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
    const names = (await readdir(out)).filter((name) => name.endsWith('.tgz')).sort();
    return Promise.all(names.map(async (fileName) => ({ fileName, content: new Uint8Array(await readFile(path.join(out, fileName))) })));
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
