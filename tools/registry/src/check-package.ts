import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkPackage as checkTypesOf, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import type { PackedPackage } from './pack-package.js';
import { REPO_ROOT } from './public-packages.js';

export interface PackageProblem {
  /** Which check found it: `publint`, `attw` or `contents`. */
  check: 'publint' | 'attw' | 'contents' | 'manifest' | 'stale';
  message: string;
}

/**
 * Files some packages ship beside dist/, and why. Anything else outside the generic set below is
 * a problem: a tarball holds what the package needs at run time and nothing else.
 */
const EXTRA_FILES: Record<string, { prefix: string; why: string; projectFiles?: true }[]> = {
  seekframe: [
    { prefix: 'bin/', why: 'the `seekframe` command' },
    // Copied into the user's project as they are: their tsconfig and dot-less gitignore belong there.
    { prefix: 'templates/', why: 'the starter `seekframe init` copies', projectFiles: true },
    { prefix: 'dist/templates/', why: 'the deploy templates `seekframe init --template` copies', projectFiles: true },
  ],
  'create-seekframe': [{ prefix: 'bin/', why: 'the `create-seekframe` command (`npm create seekframe`)' }],
  '@seekframe/render-api': [
    {
      prefix: 'fixtures/contract-composition/',
      why: 'read by contractCompositionDir(), the composition the exported contract suite renders',
    },
    {
      prefix: 'fixtures/gated-composition/',
      why: 'read by gatedCompositionDir(), the never-finishing render of the exported disconnect and cancel checks',
    },
    { prefix: 'fixtures/preview-parity/', why: 'PARITY, the composition the exported preview-equals-render check compares' },
  ],
};

/** Always in a tarball: npm adds package.json, the README and the licence itself. */
const ALWAYS = new Set(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']);

/** Paths that never belong in a published package, wherever they sit. */
const NEVER: Array<{ test: RegExp; what: string }> = [
  { test: /(^|\/)(test|tests|__tests__|__snapshots__|__fixtures__)\//, what: 'a test folder' },
  { test: /\.(test|spec)\.[cm]?[jt]sx?$/, what: 'a test file' },
  { test: /\.map$/, what: 'a source map (the sources are not published, so it points nowhere)' },
  { test: /\.tsbuildinfo$/, what: 'TypeScript build state' },
  { test: /(^|\/)tsconfig[^/]*\.json$/, what: 'a tsconfig' },
  { test: /^src\//, what: 'TypeScript sources (the package ships dist/)' },
  { test: /(^|\/)\.[^/]+$/, what: 'a dot file' },
];

/** Checks the files of one packed package: required files present, nothing that should not ship. */
export function checkContents(pkg: PackedPackage): PackageProblem[] {
  const problems: PackageProblem[] = [];
  const files = new Set(pkg.files);
  for (const required of ['package.json', 'README.md', 'LICENSE']) {
    if (!files.has(required)) problems.push({ check: 'contents', message: `${pkg.name}: ${required} is missing from the tarball` });
  }
  const extras = EXTRA_FILES[pkg.name] ?? [];
  for (const file of pkg.files) {
    const extra = extras.find((entry) => file.startsWith(entry.prefix));
    const never = extra?.projectFiles ? undefined : NEVER.find((rule) => rule.test.test(file));
    if (never) {
      problems.push({ check: 'contents', message: `${pkg.name}: ${file} is ${never.what}; leave it out with package.json "files"` });
      continue;
    }
    if (ALWAYS.has(file) || file.startsWith('dist/') || extra) continue;
    problems.push({
      check: 'contents',
      message: `${pkg.name}: ${file} is outside dist/ and not a file this package reads at run time; leave it out with package.json "files" (or list it in tools/registry/src/check-package.ts with the reason)`,
    });
  }
  for (const target of referencedFiles(pkg.manifest)) {
    if (!files.has(target))
      problems.push({ check: 'contents', message: `${pkg.name}: package.json points at ${target}, which is not in the tarball` });
  }
  return problems;
}

/** The package.json fields a user's tools read: each one is required. */
export function checkManifest(pkg: PackedPackage): PackageProblem[] {
  const manifest = pkg.manifest;
  const problems: PackageProblem[] = [];
  const need = (field: string, ok: boolean, fix: string): void => {
    if (!ok) problems.push({ check: 'manifest', message: `${pkg.name}: package.json ${field} ${fix}` });
  };
  need('"license"', typeof manifest.license === 'string' && manifest.license.length > 0, 'is missing');
  const repository = manifest.repository as { url?: unknown; directory?: unknown } | undefined;
  need(
    '"repository"',
    typeof repository?.url === 'string' && repository.directory === pkg.relativeDir,
    `must have a url and "directory": "${pkg.relativeDir}"`,
  );
  need('"engines.node"', typeof (manifest.engines as { node?: unknown } | undefined)?.node === 'string', 'is missing');
  need('"description"', typeof manifest.description === 'string' && manifest.description.length > 0, 'is missing');
  need('"type"', manifest.type === 'module', 'must be "module"');
  const exportsField = manifest.exports as Record<string, unknown> | undefined;
  const root = exportsField?.['.'];
  if (exportsField && root !== undefined) {
    need(
      '"exports"."."',
      typeof root === 'object' && root !== null && typeof (root as { types?: unknown }).types === 'string',
      'must name its "types"',
    );
  } else {
    need(
      '"exports"',
      manifest.bin !== undefined && exportsField === undefined,
      'is missing (only a package that is just a command may leave it out)',
    );
  }
  for (const [key, value] of Object.entries(manifest.dependencies ?? {})) {
    need(
      `dependency ${key}`,
      !/^(workspace:|file:|link:|\.\.?\/)/.test(value),
      `is "${value}"; a published package depends on registry versions`,
    );
  }
  if (manifest.name.startsWith('@'))
    need(
      '"publishConfig.access"',
      (manifest.publishConfig as { access?: unknown } | undefined)?.access === 'public',
      'must be "public" (a scoped package is private by default)',
    );
  return problems;
}

/** Files named by main, types, bin and every export target. */
function referencedFiles(manifest: PackedPackage['manifest']): string[] {
  const found = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value === 'string') {
      if (!value.includes('*')) found.add(path.posix.normalize(value));
    } else if (Array.isArray(value)) value.forEach(add);
    else if (value && typeof value === 'object') Object.values(value).forEach(add);
  };
  add(manifest.main);
  add(manifest.types);
  add(manifest.bin);
  add(manifest.exports);
  return [...found];
}

/** publint on the tarball itself, warnings counted as errors. */
export async function checkPublint(pkg: PackedPackage): Promise<PackageProblem[]> {
  const data = await readFile(pkg.tarball);
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
  const result = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
  return result.messages.map((message) => ({
    check: 'publint',
    message: `${pkg.name}: ${message.type}: ${formatMessage(message, result.pkg, { color: false }) ?? message.code}`,
  }));
}

/**
 * Export entries that are files for a browser page (a bundled script served to compositions or
 * the preview page), not modules to import: plain strings other than ./package.json. They have
 * no types by design, so arethetypeswrong leaves them out.
 */
export function assetEntrypoints(manifest: PackedPackage['manifest']): string[] {
  const exportsField = manifest.exports;
  if (!exportsField || typeof exportsField !== 'object') return [];
  return Object.entries(exportsField as Record<string, unknown>)
    .filter(([key, value]) => typeof value === 'string' && key !== './package.json' && !/\.d\.ts$/.test(value))
    .filter(([, value]) => !(value as string).endsWith('.json'))
    .map(([key]) => key);
}

/**
 * arethetypeswrong (@arethetypeswrong/core, the engine of @arethetypeswrong/cli) with the CLI's
 * esm-only profile: every package is ESM only (`"type": "module"`, Node 20), so CommonJS
 * resolutions (node10, node16 from CJS) are not expected to work. In-process rather than the
 * CLI: TypeScript loads once for all packages (about 1 s a package instead of 15 on a busy
 * machine). The same check by hand: `npx --prefix tools/registry attw <tgz> --profile esm-only`.
 */
export async function checkTypes(pkg: PackedPackage): Promise<PackageProblem[]> {
  if (!pkg.manifest.exports) return [];
  const data = new Uint8Array(await readFile(pkg.tarball));
  const result = await checkTypesOf(createPackageFromTarballData(data), { excludeEntrypoints: assetEntrypoints(pkg.manifest) });
  if (!result.types) return [{ check: 'attw', message: `${pkg.name}: ships no types` }];
  return result.problems
    .filter((problem) => !('resolutionKind' in problem) || (problem.resolutionKind !== 'node10' && problem.resolutionKind !== 'node16-cjs'))
    .map((problem) => ({
      check: 'attw' as const,
      message: `${pkg.name}: ${problem.kind}${'entrypoint' in problem ? ` at ${problem.entrypoint}` : ''}${'resolutionKind' in problem ? ` (${problem.resolutionKind})` : ''}`,
    }));
}

/**
 * A compiled module in the tarball whose source is gone is left over from an older build (tsc
 * writes into dist/ and never removes what it no longer writes): it would ship deleted code.
 * TypeScript's output is the pair `dist/x.js` + `dist/x.d.ts` (a lone `.d.ts` is a shim a build
 * copied); each pair must have its `src/x.ts(x)`.
 */
export function checkBuildIsCurrent(pkg: PackedPackage, root: string = REPO_ROOT): PackageProblem[] {
  const problems: PackageProblem[] = [];
  const files = new Set(pkg.files);
  for (const file of pkg.files) {
    const declared = /^dist\/(.+)\.d\.ts$/.exec(file)?.[1];
    if (declared === undefined || !files.has(`dist/${declared}.js`)) continue;
    const source = path.join(root, pkg.relativeDir, 'src', declared);
    if (['.ts', '.tsx', '.mts'].some((ext) => existsSync(source + ext))) continue;
    problems.push({
      check: 'stale',
      message: `${pkg.name}: ${file} has no source (src/${declared}.ts): left over from an older build; rebuild with npm run build -w ${pkg.name} (it empties dist/ first)`,
    });
  }
  return problems;
}

/** Every check on one packed package. */
export async function checkPackage(pkg: PackedPackage): Promise<PackageProblem[]> {
  return [
    ...checkManifest(pkg),
    ...checkContents(pkg),
    ...checkBuildIsCurrent(pkg),
    ...(await checkPublint(pkg)),
    ...(await checkTypes(pkg)),
  ];
}
