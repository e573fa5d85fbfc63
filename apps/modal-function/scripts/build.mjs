// Builds what src/app.py needs beside itself, into dist/:
//   dist/check-request.mjs  the render API's request checks, one self-contained Node script
//   dist/preview/           the preview page: index.html + app.js (@seekframe/render-api) and
//                           seekframe-player.js (@seekframe/player/bundle)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

await build({
  entryPoints: [here('../src/check-request.ts')],
  outfile: here('../dist/check-request.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['source'],
  legalComments: 'none',
  logLevel: 'warning',
});

execFileSync(process.execPath, [here('../../../adapters/render-api/scripts/build-preview.mjs')], { stdio: 'inherit' });
await mkdir(here('../dist/preview'), { recursive: true });
for (const name of ['index.html', 'app.js']) await copyFile(here(`../../../adapters/render-api/dist/preview/${name}`), here(`../dist/preview/${name}`));
await copyFile(here('../../../core/player/dist/seekframe-player.js'), here('../dist/preview/seekframe-player.js'));
