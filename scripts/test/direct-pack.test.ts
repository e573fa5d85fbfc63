import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { publishedManifest } from '../../tools/registry/src/pack-package.js';
import { listWorkspaces } from '../../tools/registry/src/public-packages.js';

// A package is packed one way: `npm run release` (a staged copy with the published manifest). A
// plain `npm pack` or `npm publish` of a workspace would ship `exports` whose `source` condition
// names TypeScript files the tarball lacks, so every public package refuses it in `prepack`.

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REFUSE = 'node ../../tools/registry/src/refuse-direct-pack.mjs';

describe('packing a workspace by any other path than the release', () => {
  it('every public package refuses a plain npm pack / npm publish in its prepack script', async () => {
    const publics = (await listWorkspaces(REPO)).filter((pkg) => !pkg.manifest.private);
    expect(publics.length).toBeGreaterThan(5);
    const without = publics.filter((pkg) => (pkg.manifest.scripts as Record<string, string> | undefined)?.prepack !== REFUSE);
    expect(without.map((pkg) => pkg.relativeDir)).toEqual([]);
  });

  it('npm pack in a package folder stops with what to run instead, and writes no tarball', async () => {
    const result = await run('npm', ['pack', '--dry-run', '--json'], { cwd: path.join(REPO, 'core/composition') }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("@seekframe/composition: pack and publish Seekframe's packages with `npm run release`");
  });

  it('the published manifest has neither the source condition nor the refusing prepack', async () => {
    const manifest = JSON.parse(await readFile(path.join(REPO, 'core/composition/package.json'), 'utf8'));
    const published = publishedManifest(manifest);
    expect(JSON.stringify(published.exports)).not.toContain('"source"');
    expect((published.scripts as Record<string, string>).prepack).toBeUndefined();
    expect((published.scripts as Record<string, string>).build).toBe(manifest.scripts.build);
  });
});
