import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type LocalRegistry, startLocalRegistry } from '../src/local-registry.js';
import { packPackages } from '../src/pack-package.js';
import { publicPackagesInOrder, REPO_ROOT } from '../src/public-packages.js';
import { publishPackages } from '../src/publish-packages.js';
import { runCommand } from '../src/run-command.js';
import { userEnv } from './support/user-env.js';
import { nodeModulesAbove } from './support/outside-folder.js';
import type { OutsideContext } from './support/outside-context.js';

/**
 * Once per run of the `outside` tests: build, pack every public package as it is published,
 * start Verdaccio on 127.0.0.1 (storage in a temp folder, the machine's registry as uplink) and
 * publish them there in dependency order. Every test file then works from that one registry.
 *
 * The work runs beside the rest of the suite instead of before it (a global setup that awaited it
 * held every test of the run for its minutes): this returns at once, providing the file the
 * context is written to when it is ready (or `{ error }`), which outsideContext() waits for.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'seekframe-outside-')));
  const ready = path.join(root, 'ready.json');
  project.provide('outsideReady', { file: ready });
  let registry: LocalRegistry | undefined;
  const prepared = prepare(root, (started) => (registry = started)).then(
    (context) => writeFile(ready, JSON.stringify(context)),
    (error: unknown) => {
      console.error('outside: the set-up failed:', error);
      return writeFile(ready, JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    },
  );
  return async () => {
    await prepared;
    await registry?.stop();
    if (process.env.SEEKFRAME_KEEP_OUTSIDE !== '1') await rm(root, { recursive: true, force: true });
    else console.log(`outside: kept ${root} (SEEKFRAME_KEEP_OUTSIDE=1)`);
  };
}

async function prepare(root: string, onRegistry: (registry: LocalRegistry) => void): Promise<OutsideContext> {
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      timings[name] = Math.round((performance.now() - started) / 100) / 10;
      console.log(`outside: ${name} ${timings[name]} s`);
    }
  };
  const above = await nodeModulesAbove(root);
  if (above.length > 0)
    throw new Error(
      `${root} has node_modules above it (${above.join(', ')}); node would resolve packages from there. Remove them or set TMPDIR elsewhere.`,
    );
  await mkdir(path.join(root, 'work'));
  const registry = await timed('start Verdaccio', () => startLocalRegistry({ dir: path.join(root, 'registry') }));
  onRegistry(registry);
  await timed('build (turbo, cached)', () =>
    runCommand('npx', ['--no-install', 'turbo', 'run', 'build', '--output-logs=errors-only'], {
      cwd: REPO_ROOT,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
    }),
  );
  const packed = await timed('pack public packages', async () => packPackages(await publicPackagesInOrder(), path.join(root, 'packs')));
  await timed('publish to Verdaccio', () => publishPackages(packed, { registry: registry.url, userconfig: registry.userconfig }));
  const context: OutsideContext = {
    root,
    registry: registry.url,
    userconfig: registry.userconfig,
    packed,
    timings,
    cliDir: path.join(root, 'work', 'cli'),
  };
  // One install of the CLI that the template tests run `seekframe init --template` from (the
  // starter flow installs its own, as its first step).
  await mkdir(context.cliDir);
  await timed('npm install seekframe (for the template tests)', () =>
    runCommand('npm', ['install', 'seekframe'], { cwd: context.cliDir, env: userEnv(context) }),
  );
  return context;
}
