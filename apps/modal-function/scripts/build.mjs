// Builds what src/app.py needs beside itself, into dist/:
//   dist/check-request.mjs         the render API's request checks, one self-contained Node script
//   dist/prepare-preview-html.mjs  the render API's runtime injection for the composition's HTML files
//   dist/preview/                  the preview page: index.html + app.js (@seekframe/render-api),
//                                  seekframe-player.js (@seekframe/player/bundle) and
//                                  seekframe-runtime.js (@seekframe/runtime/bundle, injected)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

for (const name of ['check-request', 'prepare-preview-html']) {
  await build({
    entryPoints: [here(`../src/${name}.ts`)],
    outfile: here(`../dist/${name}.mjs`),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['source'],
    legalComments: 'none',
    logLevel: 'warning',
  });
}

execFileSync(process.execPath, [here('../../../adapters/render-api/scripts/build-preview.mjs')], { stdio: 'inherit' });
await mkdir(here('../dist/preview'), { recursive: true });
for (const name of ['index.html', 'app.js']) await copyFile(here(`../../../adapters/render-api/dist/preview/${name}`), here(`../dist/preview/${name}`));
await copyFile(here('../../../core/player/dist/seekframe-player.js'), here('../dist/preview/seekframe-player.js'));
await copyFile(here('../../../core/runtime/dist/seekframe-runtime.js'), here('../dist/preview/seekframe-runtime.js'));
