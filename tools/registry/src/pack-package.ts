import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PackageManifest, WorkspacePackage } from './public-packages.js';
import { REPO_ROOT } from './public-packages.js';
import { runCommand } from './run-command.js';

export interface PackedPackage {
  name: string;
  version: string;
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** Paths inside the tarball (relative to `package/`), sorted. */
  files: string[];
  /** The package.json as published. */
  manifest: PackageManifest;
  /** Where it came from, relative to the repository root. */
  relativeDir: string;
}

interface NpmPackResult {
  name: string;
  filename: string;
  files: Array<{ path: string }>;
}

/**
 * The manifest users get. Inside the monorepo each export also has a `source` condition that
 * points at the TypeScript sources (vitest, tsx and esbuild resolve through it, so tests never
 * run a stale build); those files are not published, so the condition is dropped. So is the
 * `prepack` script that refuses any other way of packing (refuse-direct-pack.mjs): it has no
 * meaning, and no file to run, outside this repository.
 */
export function publishedManifest(manifest: PackageManifest): PackageManifest {
  const stripSource = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(stripSource);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([key]) => key !== 'source')
          .map(([key, inner]) => [key, stripSource(inner)]),
      );
    }
    return value;
  };
  const published: PackageManifest = { ...manifest };
  if (manifest.exports !== undefined) published.exports = stripSource(manifest.exports);
  if (manifest.scripts && typeof manifest.scripts === 'object') {
    const { prepack: _refuse, ...scripts } = manifest.scripts as Record<string, string>;
    published.scripts = scripts;
  }
  return published;
}

/**
 * Packs workspaces the way they are published: each one's files (package.json `files`) are
 * copied into a staging folder with the published manifest and the repository's LICENSE, and
 * `npm pack` runs there. Nothing in the checkout changes. Two npm calls in all (npm takes
 * seconds to start on a busy machine).
 */
export async function packPackages(packages: readonly WorkspacePackage[], outDir: string): Promise<PackedPackage[]> {
  if (packages.length === 0) return [];
  const staging = await mkdtemp(path.join(tmpdir(), 'seekframe-stage-'));
  try {
    const listed = await npmPack(REPO_ROOT, ['--dry-run', ...packages.flatMap((pkg) => ['--workspace', pkg.relativeDir])]);
    const stages: string[] = [];
    const manifests: PackageManifest[] = [];
    for (const [index, pkg] of packages.entries()) {
      const files = listed[index]?.files.map((file) => file.path) ?? [];
      if (listed[index]?.name !== pkg.manifest.name)
        throw new Error(`npm pack listed ${listed[index]?.name ?? 'nothing'} where ${pkg.manifest.name} was expected`);
      const stage = path.join(staging, String(index));
      for (const file of files) {
        if (file === 'package.json') continue;
        await mkdir(path.dirname(path.join(stage, file)), { recursive: true });
        await copyFile(path.join(pkg.dir, file), path.join(stage, file));
      }
      const manifest = publishedManifest(pkg.manifest);
      await mkdir(stage, { recursive: true });
      await writeFile(path.join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      if (!files.some((file) => /^licen[cs]e(\.|$)/i.test(file)) && existsSync(path.join(REPO_ROOT, 'LICENSE'))) {
        await copyFile(path.join(REPO_ROOT, 'LICENSE'), path.join(stage, 'LICENSE'));
      }
      stages.push(stage);
      manifests.push(manifest);
    }
    await mkdir(outDir, { recursive: true });
    const packed = await npmPack(staging, ['--pack-destination', outDir, ...stages]);
    return packages.map((pkg, index) => {
      const result = packed[index];
      const manifest = manifests[index]!;
      if (result?.name !== manifest.name)
        throw new Error(`npm pack wrote ${result?.name ?? 'nothing'} where ${manifest.name} was expected`);
      return {
        name: manifest.name,
        version: manifest.version,
        tarball: path.join(outDir, result.filename),
        files: result.files.map((file) => file.path).sort(),
        manifest,
        relativeDir: pkg.relativeDir,
      };
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function npmPack(cwd: string, args: string[]): Promise<NpmPackResult[]> {
  const { stdout } = await runCommand('npm', ['pack', '--json', '--ignore-scripts', '--loglevel=error', ...args], { cwd });
  return JSON.parse(stdout) as NpmPackResult[];
}
