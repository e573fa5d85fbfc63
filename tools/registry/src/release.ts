// `npm run release` at the repository root: build, pack every public package as it is published,
// check each tarball (package.json fields, contents, publint, arethetypeswrong) and publish them
// in dependency order, skipping versions the registry already has.
//   npm run release -- --dry-run                       everything but the upload
//   npm run release -- --pack-only --out-dir <dir>     only the checked tarballs, no registry asked
//                                                      (how the README installs before a release)
//   npm run release -- --registry http://127.0.0.1:4873/ --userconfig <npmrc>
// Versions and changelogs come first, from Changesets: `npx changeset version` (see docs).
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkPackage, type PackageProblem } from './check-package.js';
import { configuredRegistry } from './local-registry.js';
import { packPackages, type PackedPackage } from './pack-package.js';
import { publicPackagesInOrder, REPO_ROOT } from './public-packages.js';
import { publishPackages, type PublishStep } from './publish-packages.js';
import { runCommand } from './run-command.js';

export interface ReleaseOptions {
  registry: string;
  userconfig?: string;
  dryRun?: boolean;
  tag?: string;
  /** Skip `turbo run build` (the caller built already). */
  skipBuild?: boolean;
  /** Where the tarballs go (default: a temp folder removed afterwards). */
  outDir?: string;
  log?: (line: string) => void;
}

export interface ReleaseResult {
  packed: PackedPackage[];
  steps: PublishStep[];
}

export class ReleaseCheckError extends Error {
  constructor(readonly problems: PackageProblem[]) {
    super(
      `${problems.length} problem(s) with the packages; nothing was published:\n${problems.map((p) => `  [${p.check}] ${p.message}`).join('\n')}`,
    );
  }
}

/** Builds, packs and checks every public package; returns the tarballs in publish order. */
export async function packAndCheck(outDir: string, options: Pick<ReleaseOptions, 'skipBuild' | 'log'> = {}): Promise<PackedPackage[]> {
  const log = options.log ?? (() => {});
  if (!options.skipBuild) {
    log('building (turbo run build)');
    await runCommand('npx', ['--no-install', 'turbo', 'run', 'build', '--output-logs=errors-only'], {
      cwd: REPO_ROOT,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
    });
  }
  const packages = await publicPackagesInOrder();
  log(`packing ${packages.map((pkg) => `${pkg.manifest.name}@${pkg.manifest.version}`).join(', ')}`);
  const packed = await packPackages(packages, outDir);
  const problems = (await Promise.all(packed.map((pkg) => checkPackage(pkg)))).flat();
  if (problems.length > 0) throw new ReleaseCheckError(problems);
  return packed;
}

export async function release(options: ReleaseOptions): Promise<ReleaseResult> {
  const log = options.log ?? (() => {});
  const outDir = options.outDir ?? (await mkdtemp(path.join(tmpdir(), 'seekframe-release-')));
  try {
    const packed = await packAndCheck(outDir, options);
    log(`${options.dryRun ? 'dry run: ' : ''}publishing to ${options.registry} in dependency order`);
    const steps = await publishPackages(packed, {
      registry: options.registry,
      ...(options.userconfig ? { userconfig: options.userconfig } : {}),
      ...(options.tag ? { tag: options.tag } : {}),
      dryRun: options.dryRun ?? false,
      onStep: (step) => log(`  ${step.action.padEnd(17)} ${step.name}@${step.version}`),
    });
    return { packed, steps };
  } finally {
    if (!options.outDir) await rm(outDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      registry: { type: 'string' },
      userconfig: { type: 'string' },
      tag: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'skip-build': { type: 'boolean', default: false },
      'out-dir': { type: 'string' },
      'pack-only': { type: 'boolean', default: false },
    },
  });
  if (values['pack-only']) {
    if (!values['out-dir']) throw new Error('--pack-only writes the tarballs to --out-dir <folder>; name one');
    const outDir = path.resolve(values['out-dir']);
    await mkdir(outDir, { recursive: true });
    const packed = await packAndCheck(outDir, { skipBuild: values['skip-build'], log: (line) => console.log(`release: ${line}`) });
    for (const pkg of packed) console.log(`release: wrote ${pkg.tarball}`);
    return;
  }
  const registry = values.registry ?? (await configuredRegistry());
  await release({
    registry,
    ...(values.userconfig ? { userconfig: path.resolve(values.userconfig) } : {}),
    ...(values.tag ? { tag: values.tag } : {}),
    ...(values['out-dir'] ? { outDir: path.resolve(values['out-dir']) } : {}),
    dryRun: values['dry-run'],
    skipBuild: values['skip-build'],
    log: (line) => console.log(`release: ${line}`),
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((error: unknown) => {
    console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
