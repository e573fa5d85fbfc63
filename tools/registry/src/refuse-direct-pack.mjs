#!/usr/bin/env node
// The `prepack` script of every public Seekframe package. Inside this repository each package's
// `exports` carries a `source` condition pointing at its TypeScript sources (tests and tools
// resolve through it), and those files are not published: a plain `npm pack` or `npm publish`
// of a workspace would ship exports that point at files the tarball lacks. `npm run release`
// packs a staged copy whose manifest is the published one (tools/registry/src/pack-package.ts,
// with scripts ignored), so this script never runs there; anywhere else it stops the pack.
const name = process.env.npm_package_name ?? 'this package';
console.error(
  `${name}: pack and publish Seekframe's packages with \`npm run release\` from the repository root ` +
    '(`npm run release -- --pack-only --out-dir <folder>` for tarballs). A plain `npm pack` or `npm publish` of a ' +
    'workspace would ship exports whose `source` condition points at TypeScript files the tarball does not contain.',
);
process.exit(1);
