import type { PackedPackage } from './pack-package.js';
import { readFile } from 'node:fs/promises';
import { runCommand } from './run-command.js';

export interface PublishOptions {
  /** Registry URL (`https://registry.npmjs.org/` for a release, the local one in tests). */
  registry: string;
  /** npm user config with the token for that registry (default: the user's own ~/.npmrc). */
  userconfig?: string;
  /** `npm publish --dry-run`: everything but the upload. */
  dryRun?: boolean;
  /** dist-tag, default `latest`. */
  tag?: string;
  /** Called for each package as it is handled. */
  onStep?: (step: PublishStep) => void;
}

export interface PublishStep {
  name: string;
  version: string;
  action: 'published' | 'would-publish' | 'already-published';
}

/**
 * Whether `name@version` is on the registry: its packument over HTTP (with the registry's token
 * from the user config, if any), which is what `npm view` reads, without starting npm.
 */
export async function isPublished(
  name: string,
  version: string,
  options: Pick<PublishOptions, 'registry' | 'userconfig'>,
): Promise<boolean> {
  const base = options.registry.endsWith('/') ? options.registry : `${options.registry}/`;
  const token = options.userconfig ? await tokenFor(base, options.userconfig) : undefined;
  const response = await fetch(`${base}${name.replace('/', '%2f')}`, {
    headers: { accept: 'application/vnd.npm.install-v1+json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  if (response.status === 404) return false;
  if (!response.ok)
    throw new Error(`${base}: GET ${name} answered ${response.status}; cannot tell whether ${name}@${version} is published`);
  const packument = (await response.json()) as { versions?: Record<string, unknown> };
  return Boolean(packument.versions?.[version]);
}

/** `//host/path/:_authToken=...` for the registry in an npmrc file. */
async function tokenFor(registry: string, userconfig: string): Promise<string | undefined> {
  const text = await readFile(userconfig, 'utf8').catch(() => '');
  const key = registry.replace(/^https?:/, '');
  for (const line of text.split('\n')) {
    const match = /^\s*([^=\s]+):_authToken\s*=\s*(.+?)\s*$/.exec(line);
    if (match && key.startsWith(match[1]!)) return match[2];
  }
  return undefined;
}

/**
 * Publishes the tarballs in the order given (dependency order: `publicPackagesInOrder`), one at a
 * time, skipping versions the registry already has, so a release that failed half-way can simply
 * run again.
 */
export async function publishPackages(packed: readonly PackedPackage[], options: PublishOptions): Promise<PublishStep[]> {
  const steps: PublishStep[] = [];
  // Which versions the registry has, asked all at once (each npm call takes seconds to start).
  const published = await Promise.all(packed.map((pkg) => isPublished(pkg.name, pkg.version, options)));
  for (const [index, pkg] of packed.entries()) {
    let action: PublishStep['action'];
    if (published[index]) {
      action = 'already-published';
    } else {
      const args = [
        'publish',
        pkg.tarball,
        '--tag',
        options.tag ?? 'latest',
        '--access',
        'public',
        '--ignore-scripts',
        '--loglevel=error',
        ...registryArgs(options),
      ];
      if (options.dryRun) args.push('--dry-run');
      await runCommand('npm', args);
      action = options.dryRun ? 'would-publish' : 'published';
    }
    const step = { name: pkg.name, version: pkg.version, action };
    steps.push(step);
    options.onStep?.(step);
  }
  return steps;
}

function registryArgs(options: Pick<PublishOptions, 'registry' | 'userconfig'>): string[] {
  return ['--registry', options.registry, ...(options.userconfig ? ['--userconfig', options.userconfig] : [])];
}
