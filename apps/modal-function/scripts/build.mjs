// Builds what src/app.py needs beside itself, into dist/:
//   dist/check-request.mjs         the render API's request checks, one self-contained Node script
//   dist/prepare-preview-html.mjs  the render API's runtime injection for the composition's HTML files
//   dist/preview/                  the preview page: index.html + app.js (@seekframe/render-api),
//                                  seekframe-player.js (@seekframe/player/bundle) and
//                                  seekframe-runtime.js (@seekframe/runtime/bundle, injected)
// Everything comes from the installed packages (node_modules), in your project and in the
// Seekframe monorepo alike.
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const resolve = createRequire(import.meta.url).resolve;

for (const name of ['check-request', 'prepare-preview-html']) {
  await build({
    entryPoints: [here(`../src/${name}.ts`)],
    outfile: here(`../dist/${name}.mjs`),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Inside the monorepo: the workspaces' TypeScript sources (no other package has this condition).
    conditions: ['source'],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

const previewApp = resolve('@seekframe/render-api/preview/app.js');
const assets = {
  'index.html': path.join(path.dirname(previewApp), 'index.html'),
  'app.js': previewApp,
  'seekframe-player.js': resolve('@seekframe/player/bundle'),
  'seekframe-runtime.js': resolve('@seekframe/runtime/bundle'),
};
await mkdir(here('../dist/preview'), { recursive: true });
for (const [name, file] of Object.entries(assets)) await copyFile(file, here(`../dist/preview/${name}`));
