import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The package entries meant to run where Node is absent (a Cloudflare Worker, a browser): each is
 * bundled for the browser platform from its sources, and nothing in its import graph may be a
 * `node:` module or a file of a package's Node-only half (a `node/` folder, a `*-node.ts` entry).
 * One list for the whole repository: an entry added to it is checked the same way as the others.
 */
const WORKER_SAFE_ENTRIES = ['@seekframe/producer/composition-files', '@seekframe/producer/webhooks', '@seekframe/render-api', '@seekframe/render-api/webhooks'];

describe('worker-safe package entries', () => {
  it.each(WORKER_SAFE_ENTRIES)('%s bundles for a browser-like platform with no node: module anywhere in its import graph', async (entry) => {
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
  });
});
