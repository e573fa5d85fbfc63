#!/usr/bin/env node
// Installs npm-packed Seekframe workspaces and their production dependencies into a folder that an
// image build then copies in (`COPY <folder>/ ...`). npm runs here, on the host, with the host's
// registry, proxy and CA settings and its cache, so the image build itself needs no network for
// npm. The tree must be portable to linux-x64 containers: a package with a native addon would be
// built for this host, so one fails the staging with its name.
//   node infra/docker/stage-packages.mjs [--page-libraries] <out-dir> <pack.tgz | name@version>...
// --page-libraries adds the animation libraries compositions load from npm CDNs (gsap, animejs) at
// this checkout's versions: a render serves such CDN URLs from installed packages
// (core/producer/src/serve/resolve-cdn-url.ts), so renders in the image work offline, with the
// same library code as renders in the checkout.
// The folder keeps a stamp of what it was staged from (staged-from.txt); the same inputs again
// are not installed again.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const PAGE_LIBRARIES = ['gsap', 'animejs'];
export const STAMP_FILE = 'staged-from.txt';

/** Files that mean "compiled for the machine that installed it". */
const NATIVE = /(\.node|^binding\.gyp)$/;
/**
 * Prebuilt addons of a platform package made for the image's platform (npm installs only the
 * matching one, e.g. @msgpackr-extract/msgpackr-extract-linux-x64 under BullMQ): built by their
 * publisher for any linux-x64 glibc, not on this machine, so they run in the image as they are.
 */
const PREBUILT_FOR_IMAGE = /[\\/]node_modules[\\/](@[^\\/]+[\\/])?[^\\/]+-linux-x64(-gnu)?[\\/]/;

/**
 * A package that ships its addon's source (binding.gyp) but loads a prebuilt one for this
 * platform from its platform package (`@<name>/<name>-linux-x64`, as msgpackr-extract does) and
 * compiled nothing here (no build/ folder).
 */
function usesPrebuilt(dir, file) {
  if (file !== 'binding.gyp' || existsSync(join(dir, 'build'))) return false;
  const name = dir.split(/[\\/]/).pop();
  const modules = join(dir, '..');
  return existsSync(join(modules, `@${name}`, `${name}-linux-x64`)) || existsSync(join(modules, `${name}-linux-x64`));
}

async function nativeFiles(dir, found = []) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await nativeFiles(path, found);
    else if (NATIVE.test(entry.name) && !PREBUILT_FOR_IMAGE.test(path) && !usesPrebuilt(dir, entry.name)) found.push(path);
  }
  return found;
}

/** `name@version` of each page library as this checkout has it installed. */
export function pageLibrarySpecs() {
  // Resolved from this script's folder, as Node finds packages: the checkout's root node_modules
  // (or, in a project that copied this script, the project's).
  const require = createRequire(import.meta.url);
  return PAGE_LIBRARIES.map((name) => `${name}@${require(`${name}/package.json`).version}`);
}

/** One line per input: a pack's content hash, or a registry spec as given. */
async function stampOf(specs) {
  const lines = [];
  for (const spec of specs) {
    lines.push(
      spec.endsWith('.tgz')
        ? `${createHash('sha256')
            .update(await readFile(spec))
            .digest('hex')} ${spec.split('/').pop()}`
        : spec,
    );
  }
  return `${lines.sort().join('\n')}\n`;
}

/**
 * Stages `packs` (.tgz paths, or registry specs like gsap@3.15.0) into `outDir`: package.json,
 * node_modules and the stamp. Returns whether an earlier staging of the same inputs was kept.
 */
export async function stagePackages({ outDir, packs, pageLibraries = false, name = 'seekframe-image' }) {
  if (packs.length === 0) throw new Error('stage-packages: no packages given');
  const specs = [...packs.map((p) => (p.endsWith('.tgz') ? resolve(p) : p)), ...(pageLibraries ? pageLibrarySpecs() : [])];
  const stamp = await stampOf(specs);
  const stampPath = join(outDir, STAMP_FILE);
  if (existsSync(join(outDir, 'node_modules')) && existsSync(stampPath) && (await readFile(stampPath, 'utf8')) === stamp)
    return { outDir, reused: true };
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`);
  execFileSync(
    'npm',
    ['install', '--omit=dev', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...specs],
    {
      cwd: outDir,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const native = await nativeFiles(join(outDir, 'node_modules'));
  if (native.length) {
    throw new Error(
      `stage-packages: ${native[0]} is a native addon built for this machine; an image needs it built inside the image (npm install in the Dockerfile) instead.`,
    );
  }
  await writeFile(stampPath, stamp);
  return { outDir, reused: false };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const pageLibraries = args[0] === '--page-libraries';
  const [outDir, ...packs] = pageLibraries ? args.slice(1) : args;
  if (!outDir || packs.some((p) => p.endsWith('.tgz') && !existsSync(p))) {
    console.error('usage: node infra/docker/stage-packages.mjs [--page-libraries] <out-dir> <pack.tgz | name@version>...');
    process.exit(2);
  }
  stagePackages({ outDir: resolve(outDir), packs, pageLibraries }).catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
