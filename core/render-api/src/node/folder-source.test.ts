import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { folderSource } from './folder-source.js';

const SECRET = 'SEEKFRAME-FOLDER-SOURCE-SECRET';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-api-source-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('folderSource', () => {
  it('reads files inside the folder and nothing a symlink or a `..` leads outside of it', async () => {
    const root = path.join(dir, 'comp');
    await mkdir(path.join(root, 'assets'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<html></html>');
    await writeFile(path.join(dir, 'secret.txt'), SECRET);
    await symlink(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'leak.txt'));
    await symlink(dir, path.join(root, 'up'));
    const source = folderSource(root);
    expect(new TextDecoder().decode((await source.read('index.html'))!.body as Uint8Array)).toBe('<html></html>');
    // The preview route refuses these before the source is asked; the source refuses them on its own too.
    for (const relative of [
      'assets/leak.txt',
      'up/secret.txt',
      'up/missing.txt',
      '../secret.txt',
      'assets/../../secret.txt',
      path.join(dir, 'secret.txt'),
      'assets',
      'missing.html',
      'a\0b',
    ]) {
      expect({ relative, read: await source.read(relative) }).toEqual({ relative, read: null });
    }
  });
});
