import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('the platform-neutral entries', () => {
  it.each(['./index.ts', './webhooks.ts'])('%s bundles for a browser-like platform (a Worker): no node: module anywhere in its import graph', async (entry) => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      conditions: ['source'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.includes('adapters/render-api/src/node/'))).toBe(false);
    expect(inputs.filter((file) => file.startsWith('node:'))).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(/from\s*["']node:/);
  });
});
