import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRegistry, type LocalRegistry } from '../src/local-registry.js';
import { isPublished } from '../src/publish-packages.js';
import { REPO_ROOT } from '../src/public-packages.js';
import { runCommand } from '../src/run-command.js';
import { outsideContext } from './support/outside-context.js';
import { timed } from './support/user-shell.js';

const outside = await outsideContext();
const RELEASE = fileURLToPath(new URL('../src/release.ts', import.meta.url));

/** `npm run release` (tools/registry/src/release.ts) as CI runs it: a dry run against a local registry. */
describe('npm run release', () => {
  let empty: LocalRegistry;
  beforeAll(async () => {
    empty = await startLocalRegistry({ dir: path.join(outside.root, 'registry-dry-run') });
  });
  afterAll(async () => {
    await empty?.stop();
  });

  it('--dry-run against an empty registry: checks every package, would publish each in dependency order, uploads nothing', async () => {
    const { stdout } = await timed('release: dry run', () =>
      runCommand('npm', ['run', 'release', '--', '--dry-run', '--skip-build', '--registry', empty.url, '--userconfig', empty.userconfig], {
        cwd: REPO_ROOT,
      }),
    );
    const steps = [...stdout.matchAll(/^release:\s+would-publish\s+(\S+)@(\S+)$/gm)].map((match) => match[1]);
    expect(steps).toEqual(outside.packed.map((pkg) => pkg.name));
    // Dependencies before dependants.
    expect(steps.indexOf('@seekframe/composition')).toBeLessThan(steps.indexOf('@seekframe/engine'));
    expect(steps.indexOf('@seekframe/producer')).toBeLessThan(steps.indexOf('seekframe'));
    expect(steps.indexOf('seekframe')).toBeLessThan(steps.indexOf('create-seekframe'));
    expect(steps.indexOf('@seekframe/producer')).toBeLessThan(steps.indexOf('@seekframe/render-api'));
    expect(steps.indexOf('@seekframe/player')).toBeLessThan(steps.indexOf('@seekframe/render-api'));
    expect(steps.indexOf('@seekframe/render-api')).toBeLessThan(steps.indexOf('@seekframe/vercel-sandbox'));
    for (const pkg of outside.packed)
      expect(await isPublished(pkg.name, pkg.version, { registry: empty.url, userconfig: empty.userconfig }), pkg.name).toBe(false);
  });

  it('against a registry that has this version already: every package is skipped, nothing fails', async () => {
    const { stdout } = await runCommand(
      process.execPath,
      ['--import', 'tsx', RELEASE, '--skip-build', '--registry', outside.registry, '--userconfig', outside.userconfig],
      { cwd: REPO_ROOT },
    );
    const skipped = [...stdout.matchAll(/^release:\s+already-published\s+(\S+)@/gm)].map((match) => match[1]);
    expect(skipped).toEqual(outside.packed.map((pkg) => pkg.name));
  });
});
