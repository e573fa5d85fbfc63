// Builds what src/app.py needs beside itself, into dist/ (or SEEKFRAME_TEMPLATE_DIST):
//   dist/check-request.mjs            the render API's request checks, one self-contained Node script
//   dist/preview/                     the preview page: index.html + app.js (@seekframe/render-api),
//                                     seekframe-player.js (@seekframe/player/bundle)
//   dist/preview/compositions/<name>/ the composition's files for the player, prepared with the
//                                     render's own rule (@seekframe/producer's exportCompositionFiles:
//                                     the runtime in every page, npm libraries and @fontsource faces
//                                     from installed packages) and a manifest.json web_routes.py serves
//
//   node scripts/build.mjs                         the composition COMPOSITIONS_DIR/PREVIEW_COMPOSITION
//                                                  (default compositions/ui-3d-reveal)
//   node scripts/build.mjs --composition <dir> ... these folders instead (each under its folder name)
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportCompositionFiles } from '@seekframe/producer/composition-files/node';
import { PREVIEW_COMPOSITION_BASE } from '@seekframe/render-api';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const dist = process.env.SEEKFRAME_TEMPLATE_DIST ? path.resolve(process.env.SEEKFRAME_TEMPLATE_DIST) : here('../dist');

/** The composition folders to prepare: `--composition <dir>` (repeatable), else the one app.py serves. */
function compositionDirs() {
  const given = process.argv.flatMap((arg, i, all) => (arg === '--composition' && all[i + 1] ? [path.resolve(all[i + 1])] : []));
  if (given.length > 0) return given;
  const folder = process.env.COMPOSITIONS_DIR ? path.resolve(process.env.COMPOSITIONS_DIR) : here('../../../compositions');
  return [path.join(folder, process.env.PREVIEW_COMPOSITION?.trim() || 'ui-3d-reveal')];
}

await build({
  entryPoints: [here('../src/check-request.ts')],
  outfile: path.join(dist, 'check-request.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  conditions: ['source'],
  legalComments: 'none',
  logLevel: 'warning',
});

execFileSync(process.execPath, [here('../../../adapters/render-api/scripts/build-preview.mjs')], { stdio: 'inherit' });
await mkdir(path.join(dist, 'preview'), { recursive: true });
for (const name of ['index.html', 'app.js']) await copyFile(here(`../../../adapters/render-api/dist/preview/${name}`), path.join(dist, 'preview', name));
await copyFile(here('../../../core/player/dist/seekframe-player.js'), path.join(dist, 'preview', 'seekframe-player.js'));

for (const dir of compositionDirs()) {
  const name = path.basename(dir);
  const prepared = await exportCompositionFiles({ root: dir, outDir: path.join(dist, 'preview', 'compositions', name), base: PREVIEW_COMPOSITION_BASE });
  const count = Object.keys(prepared.manifest.files).length + Object.keys(prepared.manifest.remote).length;
  console.log(`prepared ${count} preview file(s) of ${name} (${(prepared.bytes / 1048576).toFixed(1)} MiB)`);
  for (const url of prepared.notLocal) console.warn(`  not installed here, the viewer's browser loads it: ${url}`);
}
