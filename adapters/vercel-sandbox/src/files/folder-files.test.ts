import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compositionFolder } from './folder-files.js';

const SECRET = 'SEEKFRAME-VERCEL-FOLDER-SECRET';
let dir: string;
let root: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vercel-folder-files-'));
  root = path.join(dir, 'comp');
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<html></html>');
  await writeFile(path.join(root, 'assets', 'a.txt'), 'a');
  await writeFile(path.join(dir, 'secret.txt'), SECRET);
  await symlink(path.join(dir, 'secret.txt'), path.join(root, 'assets', 'leak.txt'));
  await symlink(path.join(root, 'assets', 'a.txt'), path.join(root, 'alias.txt'));
  await symlink(dir, path.join(root, 'up'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('compositionFolder', () => {
  it('the preview reads files inside the folder, nothing a symlink or `..` leads outside of it', async () => {
    const folder = compositionFolder(root);
    expect(new TextDecoder().decode((await folder.read('assets/a.txt'))!.body as Uint8Array)).toBe('a');
    expect(new TextDecoder().decode((await folder.read('alias.txt'))!.body as Uint8Array)).toBe('a');
    for (const relative of [
      'assets/leak.txt',
      'up/secret.txt',
      'up/missing.txt',
      '../secret.txt',
      'assets/../../secret.txt',
      path.join(dir, 'secret.txt'),
      'assets',
    ]) {
      expect({ relative, read: await folder.read(relative) }).toEqual({ relative, read: null });
    }
  });

  it('the files written into the sandbox leave out every link that leads out', async () => {
    const files = await compositionFolder(root).files();
    expect(files.map((f) => f.path).sort()).toEqual(['alias.txt', 'assets/a.txt', 'index.html']);
    expect(files.some((f) => Buffer.from(f.content).toString().includes(SECRET))).toBe(false);
  });
});
