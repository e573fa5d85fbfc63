import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { WORKER_SAFE_ENTRIES } from './worker-safe-entries.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Each Worker-safe entry (worker-safe-entries.ts) is bundled for the browser platform from its
 * sources, and nothing in its import graph may be a `node:` module or a file of a package's
 * Node-only half (a `node/` folder, a `*-node.ts` entry).
 */
describe('worker-safe package entries', () => {
  it.each(WORKER_SAFE_ENTRIES)(
    '%s bundles for a browser-like platform with no node: module anywhere in its import graph',
    async (entry) => {
      const result = await build({
        stdin: { contents: `export * from '${entry}';`, resolveDir: repoRoot, loader: 'ts' },
        bundle: true,
        platform: 'browser',
        format: 'esm',
        conditions: ['source'],
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.keys(result.metafile.inputs);
      // The entry really was bundled from the workspace sources (not an empty or prebuilt module).
      expect(inputs.some((file) => /^(core|adapters)\/[^/]+\/src\//.test(file))).toBe(true);
      expect(inputs.filter((file) => file.startsWith('node:'))).toEqual([]);
      expect(inputs.filter((file) => /\/src\/node\/|-node\.ts$/.test(file))).toEqual([]);
      expect(result.outputFiles[0]!.text).not.toMatch(/from\s*["']node:/);
    },
  );
});
