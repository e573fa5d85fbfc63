// Bundles the preview page's browser code (src/preview/browser/preview-app.ts) into one ES module,
// dist/preview/preview-app.js, which `seekframe preview` serves as app.js (exported as
// `seekframe/preview-app.js`). Called by `npm run build` and by the tests (which bundle from
// source, so they never run a stale dist).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
export const entry = path.join(here, '..', 'src', 'preview', 'browser', 'preview-app.ts');
export const outfile = path.join(here, '..', 'dist', 'preview', 'preview-app.js');

/** Returns the bundle source; writes `dist/preview/preview-app.js` unless `write` is false. */
export async function bundlePreviewApp({ write = true } = {}) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2020',
    minify: false,
    legalComments: 'none',
    conditions: ['source'],
    write,
    outfile,
    logLevel: 'warning',
  });
  if (!write) return result.outputFiles[0].text;
  return undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundlePreviewApp();
}
