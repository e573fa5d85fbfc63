// Builds the preview page's assets into dist/preview/: app.js (src/preview/app/main.ts bundled
// into one browser ES module) and index.html (the page previewPageHtml() serves), so a template
// in another language (the Python function template) serves the very same page.
import { build } from 'esbuild';
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

await build({
  entryPoints: [here('../src/preview/app/main.ts')],
  outfile: here('../dist/preview/app.js'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
});

const page = await build({
  entryPoints: [here('../src/preview-page.ts')],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
  logLevel: 'warning',
});
const { previewPageHtml } = await import(`data:text/javascript;base64,${Buffer.from(page.outputFiles[0].text).toString('base64')}`);
await mkdir(here('../dist/preview'), { recursive: true });
await writeFile(here('../dist/preview/index.html'), previewPageHtml());
