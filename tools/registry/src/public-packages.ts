import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo's root folder (this file is tools/registry/src/public-packages.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface PackageManifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [field: string]: unknown;
}

export interface WorkspacePackage {
  /** Absolute path of the package folder. */
  dir: string;
  /** Path relative to the repository root, POSIX separators (e.g. `core/cli`). */
  relativeDir: string;
  manifest: PackageManifest;
}

/** Every workspace of the root package.json (`core/*`, `adapters/*`, ...), in path order. */
export async function listWorkspaces(root: string = REPO_ROOT): Promise<WorkspacePackage[]> {
  const rootManifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const found: WorkspacePackage[] = [];
  for (const pattern of rootManifest.workspaces ?? []) {
    const dirs = pattern.endsWith('/*') ? await subfolders(path.join(root, pattern.slice(0, -2))) : [path.join(root, pattern)];
    for (const dir of dirs) {
      const manifest = await readFile(path.join(dir, 'package.json'), 'utf8').then(
        (text) => JSON.parse(text) as PackageManifest,
        () => null,
      );
      if (manifest) found.push({ dir, relativeDir: path.relative(root, dir).split(path.sep).join('/'), manifest });
    }
  }
  return found.sort((a, b) => a.relativeDir.localeCompare(b.relativeDir));
}

async function subfolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory()).map((entry) => path.join(dir, entry.name));
}

/**
 * The packages users install (`private` not set), ordered so that every package comes after the
 * public packages it depends on (dependencies, peer and optional dependencies): the order a
 * release publishes in, so a registry never holds a package whose dependency is missing.
 */
export async function publicPackagesInOrder(root: string = REPO_ROOT): Promise<WorkspacePackage[]> {
  const candidates = (await listWorkspaces(root)).filter((pkg) => pkg.manifest.private !== true);
  return dependencyOrder(candidates);
}

export function dependencyOrder(packages: readonly WorkspacePackage[]): WorkspacePackage[] {
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg]));
  const ordered: WorkspacePackage[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (pkg: WorkspacePackage, chain: string[]): void => {
    const name = pkg.manifest.name;
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`dependency cycle between public packages: ${[...chain, name].join(' -> ')}`);
    state.set(name, 'visiting');
    const { dependencies = {}, peerDependencies = {}, optionalDependencies = {} } = pkg.manifest;
    // Sorted, so the order is the same on every machine.
    for (const dep of [
      ...new Set([...Object.keys(dependencies), ...Object.keys(optionalDependencies), ...Object.keys(peerDependencies)]),
    ].sort()) {
      const target = byName.get(dep);
      // An optional peer may point back up (the CLI's optional @seekframe/aws-lambda): not an
      // ordering constraint, since npm installs the CLI without it.
      if (target && !isOptionalPeer(pkg.manifest, dep)) visit(target, [...chain, name]);
    }
    state.set(name, 'done');
    ordered.push(pkg);
  };
  for (const pkg of packages) visit(pkg, []);
  return ordered;
}

function isOptionalPeer(manifest: PackageManifest, dep: string): boolean {
  const meta = manifest.peerDependenciesMeta as Record<string, { optional?: boolean }> | undefined;
  return Boolean(manifest.peerDependencies?.[dep] && meta?.[dep]?.optional && !manifest.dependencies?.[dep]);
}
