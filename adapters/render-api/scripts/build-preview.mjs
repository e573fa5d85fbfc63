// Bundles the preview page's script (src/preview/app/main.ts) into dist/preview/app.js: one ES
// module for browsers, no imports left. Templates serve it as `app.js` of their PreviewAssets.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

await build({
  entryPoints: [here('../src/preview/app/main.ts')],
  outfile: here('../dist/preview/app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
