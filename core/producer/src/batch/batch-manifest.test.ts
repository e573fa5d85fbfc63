import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManifestWriter, manifestFolder, readManifest, type Manifest } from './batch-manifest.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-manifest-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

function manifest(updatedAt: string): Manifest {
  return {
    version: 1,
    status: 'running',
    composition: '/p/index.html',
    batchFile: null,
    outputTemplate: 'out/{index}.mp4',
    createdAt: 'c',
    updatedAt,
    counts: { total: 0, pending: 0, running: 0, completed: 0, failed: 0, skipped: 0, resumed: 0 },
    rows: [],
  };
}

describe('manifest', () => {
  it('puts one manifest in the deepest folder holding every output', () => {
    expect(manifestFolder(['/a/b/x.mp4', '/a/b/c/y.mp4'])).toBe('/a/b');
    expect(manifestFolder(['/a/b/x.mp4', '/a/d/y.mp4'])).toBe('/a');
    expect(manifestFolder(['/a/b/x.mp4'])).toBe('/a/b');
  });

  it('serializes atomic writes: the last write wins and no temp file is left', async () => {
    const file = path.join(dir, 'sub', 'manifest.json');
    const writer = createManifestWriter(file);
    for (let i = 0; i < 20; i++) void writer.write(manifest(`t${i}`));
    await writer.flush();
    expect((await readManifest(file))?.updatedAt).toBe('t19');
    expect(await readdir(path.dirname(file))).toEqual(['manifest.json']);
  });

  it('reads nothing from a missing or foreign file, and reports a failed write on flush', async () => {
    expect(await readManifest(path.join(dir, 'none.json'))).toBeUndefined();
    const writer = createManifestWriter(path.join(dir, 'sub', 'manifest.json', 'nested.json'));
    void writer.write(manifest('x'));
    await expect(writer.flush()).rejects.toThrow();
  });
});
