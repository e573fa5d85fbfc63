// Builds what src/app.py needs beside itself, into dist/ (or SEEKFRAME_TEMPLATE_DIST):
//   dist/check-request.mjs            the render API's request checks, one self-contained Node script
//   dist/error-http-status.json       ERROR_HTTP_STATUS (@seekframe/composition): the status of every
//                                     error code, the table every HTTP face answers with
//   dist/error-fixes.json             the documented fix of each error code (ERROR_DOCS), for the
//                                     fix in render.failed webhook events (src/webhooks.py)
//   dist/preview/                     the preview page: index.html + app.js (@seekframe/render-api),
//                                     seekframe-player.js (@seekframe/player/bundle)
//   dist/openapi.json                 the render API's OpenAPI document (@seekframe/render-api's
//                                     renderApiDocument, answer mode call-id), served at /api/openapi.json
//   dist/preview/compositions/<name>/ the composition's files for the player, prepared with the
//                                     render's own rule (@seekframe/producer's exportCompositionFiles:
//                                     the runtime in every page, npm libraries and @fontsource faces
//                                     from installed packages) and a manifest.json web_routes.py serves
// Everything comes from the installed packages (node_modules), in your project and in the
// Seekframe monorepo alike.
//
//   node scripts/build.mjs                         the composition <compositions>/PREVIEW_COMPOSITION
//                                                  (default ui-3d-reveal; compositions/ is COMPOSITIONS_DIR,
//                                                  else the first compositions/ folder from here upwards)
//   node scripts/build.mjs --composition <dir> ... these folders instead (each under its folder name)
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportCompositionFiles } from '@seekframe/producer/composition-files/node';
import { ERROR_DOCS } from '@seekframe/composition';
import { PREVIEW_COMPOSITION_BASE, renderApiDocument } from '@seekframe/render-api';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const resolve = createRequire(import.meta.url).resolve;
const dist = process.env.SEEKFRAME_TEMPLATE_DIST ? path.resolve(process.env.SEEKFRAME_TEMPLATE_DIST) : here('../dist');

/** The first `<folder>/compositions` from the project upwards, as template_settings.py finds it. */
function compositionsFolder() {
  if (process.env.COMPOSITIONS_DIR) return path.resolve(process.env.COMPOSITIONS_DIR);
  for (let folder = here('..'); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'compositions'))) return path.join(folder, 'compositions');
    if (path.dirname(folder) === folder) return here('../compositions');
  }
}

/** The composition folders to prepare: `--composition <dir>` (repeatable), else the one app.py serves. */
function compositionDirs() {
  const given = process.argv.flatMap((arg, i, all) => (arg === '--composition' && all[i + 1] ? [path.resolve(all[i + 1])] : []));
  if (given.length > 0) return given;
  return [path.join(compositionsFolder(), process.env.PREVIEW_COMPOSITION?.trim() || 'ui-3d-reveal')];
}

await build({
  entryPoints: [here('../src/check-request.ts')],
  outfile: path.join(dist, 'check-request.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Inside the monorepo: the workspaces' TypeScript sources (no other package has this condition).
  conditions: ['source'],
  legalComments: 'none',
  logLevel: 'warning',
});

// The one code -> status table, as data the Python app reads (src/web_routes.py): bundled from the
// sources like the script above, then evaluated here.
const table = await build({
  stdin: { contents: "export { ERROR_HTTP_STATUS as default } from '@seekframe/composition';", resolveDir: here('..'), loader: 'ts' },
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  conditions: ['source'],
  logLevel: 'warning',
});
const { default: statuses } = await import(`data:text/javascript;base64,${Buffer.from(table.outputFiles[0].contents).toString('base64')}`);
await mkdir(dist, { recursive: true });
await writeFile(path.join(dist, 'error-http-status.json'), `${JSON.stringify(statuses, null, 1)}\n`);
await writeFile(
  path.join(dist, 'error-fixes.json'),
  JSON.stringify(Object.fromEntries(Object.entries(ERROR_DOCS).map(([code, doc]) => [code, doc.fix]))),
);

const previewApp = resolve('@seekframe/render-api/preview/app.js');
const assets = {
  'index.html': path.join(path.dirname(previewApp), 'index.html'),
  'app.js': previewApp,
  'seekframe-player.js': resolve('@seekframe/player/bundle'),
};
await mkdir(path.join(dist, 'preview'), { recursive: true });
for (const [name, file] of Object.entries(assets)) await copyFile(file, path.join(dist, 'preview', name));

// The Python app cannot run the TypeScript that makes the document: it is made here, from the same
// zod schemas every TypeScript template serves it from, for this template's answer mode.
await writeFile(path.join(dist, 'openapi.json'), `${JSON.stringify(renderApiDocument({ answerMode: 'call-id' }), null, 2)}\n`);

for (const dir of compositionDirs()) {
  const name = path.basename(dir);
  const prepared = await exportCompositionFiles({
    root: dir,
    outDir: path.join(dist, 'preview', 'compositions', name),
    base: PREVIEW_COMPOSITION_BASE,
  });
  const count = Object.keys(prepared.manifest.files).length + Object.keys(prepared.manifest.remote).length;
  console.log(`prepared ${count} preview file(s) of ${name} (${(prepared.bytes / 1048576).toFixed(1)} MiB)`);
  for (const url of prepared.notLocal) console.warn(`  not installed here, the viewer's browser loads it: ${url}`);
}
