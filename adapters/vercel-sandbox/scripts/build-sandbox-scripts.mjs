// Bundles the scripts that run inside the sandbox (each with its npm dependencies) into single
// files under dist/sandbox-scripts/, so a sandbox needs nothing but Node to run them.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  entryPoints: [`${root}src/sandbox-scripts/run-job.ts`],
  outfile: `${root}dist/sandbox-scripts/run-job.mjs`,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __seekframeRequire } from 'node:module'; const require = __seekframeRequire(import.meta.url);" },
});
