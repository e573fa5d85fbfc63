#!/usr/bin/env node
// Installs npm-packed Seekframe workspaces and their production dependencies into a folder that an
// image build then copies in (`COPY <folder>/ ...`). npm runs here, on the host, with the host's
// registry, proxy and CA settings and its cache, so the image build itself needs no network for
// npm. The tree must be portable to linux-x64 containers: a package with a native addon would be
// built for this host, so one fails the staging with its name.
//   node infra/docker/stage-packages.mjs <out-dir> <pack.tgz>...
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Files that mean "compiled for the machine that installed it". */
const NATIVE = /(\.node|^binding\.gyp)$/;

async function nativeFiles(dir, found = []) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await nativeFiles(path, found);
    else if (NATIVE.test(entry.name)) found.push(path);
  }
  return found;
}

/** Stages `packs` (absolute .tgz paths) into `outDir` (replaced): package.json + node_modules. */
export async function stagePackages({ outDir, packs, name = 'seekframe-image' }) {
  if (packs.length === 0) throw new Error('stage-packages: no .tgz files given');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify({ name, private: true, type: 'module' }, null, 2)}\n`);
  execFileSync('npm', ['install', '--omit=dev', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...packs.map((p) => resolve(p))], {
    cwd: outDir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const native = await nativeFiles(join(outDir, 'node_modules'));
  if (native.length) {
    throw new Error(`stage-packages: ${native[0]} is a native addon built for this machine; an image needs it built inside the image (npm install in the Dockerfile) instead.`);
  }
  return { outDir };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [outDir, ...packs] = process.argv.slice(2);
  if (!outDir || packs.some((p) => !existsSync(p))) {
    console.error('usage: node infra/docker/stage-packages.mjs <out-dir> <pack.tgz>...');
    process.exit(2);
  }
  stagePackages({ outDir: resolve(outDir), packs }).catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
