#!/usr/bin/env node
// Builds the Cloudflare template:
//   dist/worker/worker.js  the Worker (Hono + the render API), one ES module, with the composition
//                          and the preview page's assets embedded (wrangler.jsonc `main`)
//   dist/assets/composition/  the composition's files as the render's rule serves them to the
//                          player (runtime injected, npm libraries, fonts), prepared here because a
//                          Worker cannot read node_modules: the Worker's static assets (ASSETS)
//   dist/container/        the container image's context pieces the Dockerfile copies: the render
//                          server bundle, the composition, the Seekframe packages and the npm
//                          packages the composition uses (npm pack) and app/: those packs installed
//                          with their production dependencies on this machine (the image build makes
//                          no npm requests), and the system packages' install script
//
//   node scripts/build.mjs                 both
//   node scripts/build.mjs --worker-only   the Worker only (local dev and tests)
//
// The composition: PREVIEW_COMPOSITION_DIR (a folder with index.html; a relative path is tried
// against this app's folder, then found upwards from it), default compositions/ui-3d-reveal. Put
// your own in compositions/<name>/ and set PREVIEW_COMPOSITION_DIR=compositions/<name>.
// The Seekframe packages come from node_modules: in your project the published versions, in the
// Seekframe monorepo the built workspaces.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { exportCompositionFiles } from '@seekframe/producer/composition-files/node';
import { PREVIEW_COMPOSITION_BASE } from '@seekframe/render-api';

const APP_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The image helpers shared with the `--docker` render image (infra/docker in the Seekframe
 * repository): in the monorepo they are used from there, so both images install the system
 * packages with the same step (one shared layer); `seekframe init --template cloudflare-container`
 * copies them into the project's scripts/ folder.
 */
function imageHelper(name) {
  const own = join(APP_DIR, 'scripts', name);
  if (existsSync(own)) return own;
  // In the Seekframe checkout: infra/docker of the repository this app sits in (found upwards,
  // so a project made by `seekframe init` names no path outside its own folder).
  for (let dir = dirname(APP_DIR); dir !== dirname(dir); dir = dirname(dir)) {
    const shared = join(dir, 'infra', 'docker', name);
    if (existsSync(shared)) return shared;
  }
  throw new Error(`scripts/${name} is missing; copy it from a Seekframe checkout (infra/docker/${name}).`);
}
export const DEFAULT_COMPOSITION_DIR = 'compositions/ui-3d-reveal';

/** Packages the container installs (in dependency order), as installed here. */
const CONTAINER_PACKAGES = ['@seekframe/composition', '@seekframe/runtime', '@seekframe/engine', '@seekframe/producer'];

const TEXT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};
const BINARY_TYPES = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.ogg': 'audio/ogg',
};
/** A Worker script may be 10 MiB compressed on the paid plan (3 MiB free): keep embedded files well under it. */
const MAX_EMBEDDED_BYTES = 8 * 1024 * 1024;

/** The composition folder: an absolute path, else relative to this app, else found upwards from it. */
export function resolveCompositionDir(setting = process.env.PREVIEW_COMPOSITION_DIR || DEFAULT_COMPOSITION_DIR) {
  const candidates = isAbsolute(setting)
    ? [setting]
    : [resolve(APP_DIR, setting), ...ancestors(dirname(APP_DIR)).map((dir) => resolve(dir, setting))];
  const found = candidates.find((dir) => existsSync(join(dir, 'index.html')));
  if (!found) {
    throw new Error(
      `PREVIEW_COMPOSITION_DIR=${setting}: no index.html in ${candidates[0]} (nor in the folders above it). ` +
        'Set it to a composition folder, e.g. compositions/<name> or public/compositions/<name> (your own), or compositions/ui-3d-reveal.',
    );
  }
  return found;
}

function ancestors(dir) {
  const list = [dir];
  while (dirname(list.at(-1)) !== list.at(-1)) list.push(dirname(list.at(-1)));
  return list;
}

/** Files of a composition folder (relative POSIX paths), leaving out tests, renders, node_modules and dot files. */
async function compositionFiles(dir, prefix = '') {
  const files = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    if (prefix === '' && (entry.name === 'test' || entry.name === 'renders')) continue;
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await compositionFiles(dir, path)));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

async function embed(file) {
  const ext = extname(file).toLowerCase();
  if (TEXT_TYPES[ext]) return { contentType: TEXT_TYPES[ext], text: await readFile(file, 'utf8') };
  return { contentType: BINARY_TYPES[ext] ?? 'application/octet-stream', base64: (await readFile(file)).toString('base64') };
}

/** The preview page's built assets, from their packages (built by `npm run build`). */
function previewAssetFiles() {
  const wanted = {
    'app.js': '@seekframe/render-api/preview/app.js',
    'seekframe-player.js': '@seekframe/player/bundle',
  };
  const files = {};
  for (const [name, specifier] of Object.entries(wanted)) {
    let path;
    try {
      // require.resolve, not import.meta.resolve: both exports are plain file paths, and it
      // behaves the same under vitest.
      path = createRequire(import.meta.url).resolve(specifier);
    } catch {
      path = undefined;
    }
    if (!path || !existsSync(path)) {
      throw new Error(
        `${specifier} is not built; run \`npm run build\` at the repository root first (turbo builds the player and the render API).`,
      );
    }
    files[name] = path;
  }
  return files;
}

/**
 * Bundles the Worker with the composition and preview assets as the module `seekframe:bundled-assets`,
 * and prepares the composition's files for the player into `<assetsDir>/composition/` (the Worker's
 * static assets): every answer the render's rule gives for them, found by following the pages'
 * references. A remote URL the build could not answer from an installed package is listed in
 * `notLocal`; the viewer's browser loads it from where it is.
 */
export async function buildWorker({
  compositionDir = resolveCompositionDir(),
  outDir = join(APP_DIR, 'dist', 'worker'),
  assetsDir = join(APP_DIR, 'dist', 'assets'),
} = {}) {
  const composition = {};
  let bytes = 0;
  for (const path of await compositionFiles(compositionDir)) {
    composition[path] = await embed(join(compositionDir, path));
    bytes += (composition[path].text ?? composition[path].base64).length;
  }
  if (bytes > MAX_EMBEDDED_BYTES) {
    throw new Error(
      `The composition in ${compositionDir} is ${(bytes / 1048576).toFixed(1)} MiB embedded, more than the ${MAX_EMBEDDED_BYTES / 1048576} MiB this template puts into a Worker; ` +
        'host large media at public URLs (the render fetches them) and reference those.',
    );
  }
  const preview = {};
  for (const [name, path] of Object.entries(previewAssetFiles())) preview[name] = await embed(path);
  const prepared = await exportCompositionFiles({
    root: compositionDir,
    outDir: join(assetsDir, 'composition'),
    base: PREVIEW_COMPOSITION_BASE,
  });
  const assetsModule =
    `export const composition = ${JSON.stringify(composition)};\nexport const preview = ${JSON.stringify(preview)};\n` +
    `export const compositionFiles = ${JSON.stringify(prepared.manifest)};\n`;

  await mkdir(outDir, { recursive: true });
  const outfile = join(outDir, 'worker.js');
  await esbuild.build({
    entryPoints: [join(APP_DIR, 'src/worker.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    // `source` = the workspaces' TypeScript; a `node:` import anywhere in the graph fails the build.
    conditions: ['workerd', 'worker', 'source', 'browser', 'import'],
    mainFields: ['module', 'main'],
    external: ['cloudflare:*'],
    logLevel: 'warning',
    plugins: [
      {
        name: 'seekframe-bundled-assets',
        setup(build) {
          build.onResolve({ filter: /^seekframe:bundled-assets$/ }, (args) => ({ path: args.path, namespace: 'seekframe-assets' }));
          build.onLoad({ filter: /.*/, namespace: 'seekframe-assets' }, () => ({ contents: assetsModule, loader: 'js' }));
        },
      },
    ],
  });
  return {
    outfile,
    assetsDir,
    compositionDir,
    files: Object.keys(composition).length,
    prepared: Object.keys(prepared.manifest.files).length + Object.keys(prepared.manifest.remote).length,
    preparedBytes: prepared.bytes,
    notLocal: prepared.notLocal,
  };
}

/** The container's pieces: server bundle, composition, packed Seekframe packages, package.json. */
export async function buildContainerContext({
  compositionDir = resolveCompositionDir(),
  outDir = join(APP_DIR, 'dist', 'container'),
} = {}) {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, 'packs'), { recursive: true });
  await esbuild.build({
    entryPoints: [join(APP_DIR, 'container/main.ts')],
    outfile: join(outDir, 'server.mjs'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    conditions: ['source'],
    // Installed in the image from the packs: the producer finds its runtime bundle and fonts by
    // package resolution, which bundling would break.
    external: ['@seekframe/producer', '@seekframe/composition'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  for (const path of await compositionFiles(compositionDir)) {
    await mkdir(dirname(join(outDir, 'composition', path)), { recursive: true });
    await cp(join(compositionDir, path), join(outDir, 'composition', path));
  }
  // npm pack of each package folder as installed (one npm call): the image installs exactly the
  // code this deployment was built with, plus the npm packages the composition loads by CDN URL
  // (e.g. gsap), so a render in the container fetches nothing from a CDN.
  const require = createRequire(join(APP_DIR, 'package.json'));
  const dirs = [];
  for (const name of [...CONTAINER_PACKAGES, ...(await compositionLibraries(compositionDir))]) {
    let manifest;
    try {
      manifest = require.resolve(`${name}/package.json`);
    } catch {
      throw new Error(
        `${name} is not installed in ${APP_DIR}; run \`npm install\` there (in the Seekframe monorepo: at the repository root).`,
      );
    }
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    const entry = typeof pkg.exports?.['.'] === 'object' ? pkg.exports['.'].import : undefined;
    if (entry && !existsSync(join(dirname(manifest), entry))) {
      throw new Error(
        `${name} is not built (${join(dirname(manifest), entry)} is missing); run \`npm run build\` at the repository root first.`,
      );
    }
    dirs.push(dirname(manifest));
  }
  execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', join(outDir, 'packs'), ...dirs], {
    cwd: outDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await cp(imageHelper('apt-install-pinned.sh'), join(outDir, 'apt-install-pinned.sh'));
  return { outDir, packs: (await readdir(join(outDir, 'packs'))).sort() };
}

/**
 * dist/container/app/: the packs installed with their production dependencies on this machine,
 * for the Dockerfile to copy: the image build makes no npm requests. Kept as it is when the packs
 * did not change.
 */
export async function stageContainerPackages({
  outDir = join(APP_DIR, 'dist', 'container'),
  appDir = join(APP_DIR, 'dist', 'container-app'),
} = {}) {
  const { stagePackages } = await import(pathToFileURL(imageHelper('stage-packages.mjs')).href);
  const packs = (await readdir(join(outDir, 'packs'))).map((name) => join(outDir, 'packs', name));
  // Staged beside dist/container (which buildContainerContext replaces) and copied in, so an
  // unchanged set of packs is not installed again.
  const staged = await stagePackages({ outDir: appDir, packs, name: 'seekframe-render-container' });
  await cp(appDir, join(outDir, 'app'), { recursive: true, verbatimSymlinks: true });
  return staged;
}

/**
 * npm packages the composition uses, installed in the image so a render there fetches nothing from
 * a CDN: those its pages and stylesheets reference (`node_modules/<package>/…` paths and npm CDN
 * URLs, found by the composition files rule's build-time crawl, the same one that prepares the
 * preview), and those any file names by an npm CDN URL in its text (a script that builds the
 * URL of a library from a literal, e.g. gsap). The render finds them in /app/node_modules, above
 * the composition's folder.
 */
export async function compositionLibraries(compositionDir) {
  // The producer's own rule for which URLs it serves from installed packages.
  const { parseCdnUrl } = await import('@seekframe/producer');
  const found = new Set();
  const { packages } = await exportCompositionFiles({ root: compositionDir, base: PREVIEW_COMPOSITION_BASE });
  for (const name of packages) found.add(name);
  for (const path of await compositionFiles(compositionDir)) {
    if (!/\.(html?|m?js|css)$/i.test(path)) continue;
    const text = await readFile(join(compositionDir, path), 'utf8');
    for (const match of text.matchAll(/https:\/\/(?:cdn\.jsdelivr\.net\/npm|unpkg\.com)\/[^\s"'`)<>]+/g)) {
      const ref = parseCdnUrl(match[0]);
      if (ref) found.add(ref.pkg);
    }
  }
  return [...found].sort();
}

async function main() {
  const workerOnly = process.argv.includes('--worker-only');
  const compositionDir = resolveCompositionDir();
  const worker = await buildWorker({ compositionDir });
  console.log(
    `built ${relative(process.cwd(), worker.outfile)} with ${worker.files} file(s) of ${relative(APP_DIR, compositionDir) || compositionDir}`,
  );
  console.log(
    `prepared ${worker.prepared} preview file(s), ${(worker.preparedBytes / 1048576).toFixed(1)} MiB, in ${relative(process.cwd(), worker.assetsDir)}`,
  );
  for (const url of worker.notLocal) console.warn(`  not installed here, the viewer's browser loads it: ${url}`);
  if (!workerOnly) {
    const container = await buildContainerContext({ compositionDir });
    const staged = await stageContainerPackages({ outDir: container.outDir });
    console.log(
      `built ${relative(process.cwd(), container.outDir)} (${container.packs.join(', ')}; dependencies ${staged.reused ? 'unchanged' : 'installed'})`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(`build: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
