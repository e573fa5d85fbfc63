import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { WORKER_SAFE_ENTRIES } from './worker-safe-entries.js';

/**
 * The package boundaries, checked by reading every import of every source file (tests excluded):
 * what docs/contributing/architecture.md promises, so a new import that breaks it fails the suite
 * instead of waiting for a reviewer. Imports are read with TypeScript's own pre-processor
 * (static, dynamic and re-exports; type-only imports count too, since tsc loads their graph).
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

interface SourceFile {
  /** Repository-relative POSIX path. */
  file: string;
  imports: string[];
}

/** The TypeScript sources under `folder`; with `everything`, its tests and JavaScript (scripts) too. */
function sourceFiles(folder: string, skip: (file: string) => boolean = () => false, everything = false): SourceFile[] {
  const base = path.join(ROOT, folder);
  const entries = readdirSync(base, { recursive: true, withFileTypes: true });
  const wanted = (name: string): boolean =>
    everything
      ? /\.(ts|tsx|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')
      : /\.(ts|tsx|mts)$/.test(name) && !/\.(test|d)\.ts$/.test(name);
  return entries
    .filter((entry) => entry.isFile() && wanted(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .filter((file) => !file.includes('/node_modules/') && !file.includes('/dist/') && !skip(file))
    .map((file) => ({
      file,
      imports: ts.preProcessFile(readFileSync(path.join(ROOT, file), 'utf8'), true, true).importedFiles.map((i) => i.fileName),
    }));
}

function violations(files: SourceFile[], forbidden: (specifier: string, file: string) => boolean): string[] {
  return files.flatMap(({ file, imports }) =>
    imports.filter((specifier) => forbidden(specifier, file)).map((specifier) => `${file} imports ${specifier}`),
  );
}

/** The packages of this repository: name -> folder and the subpaths its `exports` map offers. */
const PACKAGES = new Map<string, { dir: string; exports: Set<string> }>();
for (const group of ['core', 'adapters', 'apps']) {
  for (const entry of readdirSync(path.join(ROOT, group), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = `${group}/${entry.name}`;
    let manifest: { name: string; exports?: Record<string, unknown> | string };
    try {
      manifest = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as typeof manifest;
    } catch {
      continue;
    }
    const exports = typeof manifest.exports === 'object' && manifest.exports !== null ? Object.keys(manifest.exports) : ['.'];
    PACKAGES.set(manifest.name, { dir, exports: new Set(exports) });
  }
}

/** `@seekframe/x/sub` -> `['@seekframe/x', './sub']`; null for a specifier of no package of ours. */
function ownPackage(specifier: string): [string, string] | null {
  for (const name of PACKAGES.keys()) {
    if (specifier === name) return [name, '.'];
    if (specifier.startsWith(`${name}/`)) return [name, `./${specifier.slice(name.length + 1)}`];
  }
  return null;
}

const isNodeBuiltin = (specifier: string): boolean => NODE_BUILTINS.has(specifier) || NODE_BUILTINS.has(specifier.split('/')[0]!);
/** Packages that load Node code (a process, a file system, Chromium) at import. */
const NODE_PACKAGES = /^(@seekframe\/(engine|producer|cli)|seekframe|puppeteer-core|@hono\/node-server|@aws-sdk\/)/;
/** The Worker-safe subpaths of the producer (worker-safe-entries.ts: each is bundled without a `node:` module). */
const WORKER_SAFE_PRODUCER = new Set<string>(WORKER_SAFE_ENTRIES.filter((entry) => entry.startsWith('@seekframe/producer/')));

describe('dependency rules', () => {
  it('browser-bundled code (composition, runtime, player, the preview page) imports no Node module', () => {
    const files = [
      ...sourceFiles('core/composition/src'),
      ...sourceFiles('core/runtime/src'),
      ...sourceFiles('core/player/src'),
      ...sourceFiles('adapters/render-api/src/preview'),
    ];
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files, (specifier) => isNodeBuiltin(specifier) || NODE_PACKAGES.test(specifier))).toEqual([]);
  });

  it("Worker-safe code (render-api main entry, the producer's http/ and storage port, the Cloudflare adapter) imports no Node module or Node package", () => {
    const files = [
      ...sourceFiles('adapters/render-api/src', (file) => /\/src\/(node|contract-suite|preview)\//.test(file)),
      ...sourceFiles('core/producer/src/http'),
      ...sourceFiles('core/producer/src/storage', (file) => !file.endsWith('/storage-port.ts')),
      ...sourceFiles('adapters/cloudflare-container/src'),
    ];
    expect(files.length).toBeGreaterThan(30);
    expect(
      violations(files, (specifier) => isNodeBuiltin(specifier) || (NODE_PACKAGES.test(specifier) && !WORKER_SAFE_PRODUCER.has(specifier))),
    ).toEqual([]);
  });

  it('the engine never imports the producer (the dependency runs one way)', () => {
    expect(violations(sourceFiles('core/engine/src'), (specifier) => specifier.startsWith('@seekframe/producer'))).toEqual([]);
  });

  it('no package below the CLI imports it (adapters and apps translate to core calls, never to commands)', () => {
    const files = [...sourceFiles('adapters'), ...sourceFiles('core', (file) => file.startsWith('core/cli/'))];
    expect(violations(files, (specifier) => specifier === 'seekframe' || specifier.startsWith('seekframe/'))).toEqual([]);
  });

  it('no adapter declares the CLI package as a dependency, and the render API not even for its tests', () => {
    // The CLI has an optional peer on @seekframe/aws-lambda, which builds on the render API: a
    // dependency from an adapter back to the CLI closes a cycle. Hosts pass the CLI in
    // (createLocalRunner's `cli`); the render API's own tests find it by its workspace path.
    const fields = ['dependencies', 'peerDependencies', 'optionalDependencies'];
    const declared = [...PACKAGES.values()]
      .filter(({ dir }) => dir.startsWith('adapters/'))
      .flatMap(({ dir }) => {
        const manifest = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as Record<
          string,
          Record<string, string> | undefined
        >;
        const checked = dir === 'adapters/render-api' ? [...fields, 'devDependencies'] : fields;
        return checked
          .filter((field) => manifest[field]?.seekframe !== undefined)
          .map((field) => `${dir}/package.json ${field} has seekframe`);
      });
    expect(declared).toEqual([]);
    const files = sourceFiles('adapters/render-api', () => false, true);
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files, (specifier) => specifier === 'seekframe' || specifier.startsWith('seekframe/'))).toEqual([]);
  });

  it('a package reaches another only through its exports map, never into its files', () => {
    // Shipped code only: a test's support module may share another package's local stand-in (the
    // Lambda tests run s3rver through @seekframe/s3-storage's test/support/local-s3.ts).
    const testSupport = (file: string) => file.includes('/test/');
    const files = [...sourceFiles('core', testSupport), ...sourceFiles('adapters', testSupport), ...sourceFiles('apps', testSupport)];
    const deep = violations(files, (specifier, file) => {
      const own = ownPackage(specifier);
      if (own) return !PACKAGES.get(own[0])!.exports.has(own[1]);
      if (!specifier.startsWith('.')) return false;
      // A relative path that leaves the importing file's package folder.
      const pkg = [...PACKAGES.values()].find(({ dir }) => file.startsWith(`${dir}/`));
      if (!pkg) return false;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      return !target.startsWith(`${pkg.dir}/`);
    });
    expect(deep).toEqual([]);
  });
});
