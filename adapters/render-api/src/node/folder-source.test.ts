import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderSource } from './folder-source.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-api-source-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('folderSource', () => {
  it('reads files inside the folder and nothing a symlink points outside of it', async () => {
    const root = path.join(dir, 'comp');
    await mkdir(path.join(root, 'assets'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<html></html>');
    await writeFile(path.join(dir, 'secret.txt'), 'secret');
    await symlink(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'leak.txt'));
    const source = folderSource(root);
    expect(new TextDecoder().decode((await source.read('index.html'))!.body as Uint8Array)).toBe('<html></html>');
    expect(await source.read('assets/leak.txt')).toBeNull();
    expect(await source.read('assets')).toBeNull();
    expect(await source.read('missing.html')).toBeNull();
  });
});
