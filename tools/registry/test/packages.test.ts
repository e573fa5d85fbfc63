import { describe, expect, it } from 'vitest';
import { checkBuildIsCurrent, checkContents, checkManifest, checkPublint, checkTypes } from '../src/check-package.js';
import { listWorkspaces } from '../src/public-packages.js';
import { outsideContext } from './support/outside-context.js';

const { packed } = await outsideContext();

/**
 * Every public package as it is published (the tarballs the global setup packed and published):
 * package.json fields a user's tools read, only the files it needs, publint, arethetypeswrong.
 */
describe('public packages are fit to publish', () => {
  it('every workspace that is not private is packed, each once', async () => {
    const workspaces = (await listWorkspaces()).filter((pkg) => pkg.manifest.private !== true).map((pkg) => pkg.manifest.name);
    expect(packed.map((pkg) => pkg.name).sort()).toEqual(workspaces.sort());
    expect(packed.map((pkg) => pkg.name)).toEqual(expect.arrayContaining(['seekframe', 'create-seekframe', '@seekframe/render-api']));
  });

  it('all pin one version (Changesets keeps them in lockstep)', () => {
    expect(new Set(packed.map((pkg) => pkg.version)).size).toBe(1);
  });

  it('the stale-build check finds a compiled module whose source is gone, and only that (a lone .d.ts is a copied shim)', () => {
    const pkg = packed.find((candidate) => candidate.name === '@seekframe/composition')!;
    const files = ['dist/index.js', 'dist/index.d.ts', 'dist/removed-module.js', 'dist/removed-module.d.ts', 'dist/shim.d.ts'];
    expect(checkBuildIsCurrent({ ...pkg, files }).map((problem) => problem.message)).toEqual([
      expect.stringMatching(/^@seekframe\/composition: dist\/removed-module\.d\.ts has no source \(src\/removed-module\.ts\)/),
    ]);
  });

  for (const pkg of packed) {
    describe(pkg.name, () => {
      it('package.json: license, repository, engines, description, ESM, exports with types, registry dependencies', () => {
        expect(checkManifest(pkg)).toEqual([]);
      });
      it('tarball: README, LICENSE and what it needs at run time; no tests, sources, maps or unused fixtures', () => {
        expect(checkContents(pkg)).toEqual([]);
      });
      it('tarball: no file of an older build (each dist/ declaration has its source)', () => {
        expect(checkBuildIsCurrent(pkg)).toEqual([]);
      });
      it('publint (warnings count)', async () => {
        expect(await checkPublint(pkg)).toEqual([]);
      });
      it('arethetypeswrong (esm-only profile)', async () => {
        expect(await checkTypes(pkg)).toEqual([]);
      });
    });
  }
});
