import { link, lstat, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractProject, packProject } from './project-archive.js';

const SECRET = 'SEEKFRAME-LAMBDA-SECRET-77aa';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'seekframe-archive-'));
  await writeFile(path.join(dir, 'secret.txt'), SECRET);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** A tarball written as an attacker would: links and paths exactly as given, nothing followed. */
async function craft(name: string, cwd: string, entries: string[], options: { preservePaths?: boolean } = {}): Promise<string> {
  const file = path.join(dir, `${name}.tar.gz`);
  // Written synchronously: node-tar's streaming pack of a hard-link entry could end its gzip stream
  // twice when the machine was busy (an uncaught "zlib: stream error" after the test had passed).
  tar.c({ gzip: true, cwd, follow: false, portable: true, sync: true, file, ...options }, entries);
  return file;
}

/** Every path under `folder`, with its kind, so a test sees what extraction wrote. */
async function listing(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])) {
    const full = path.join(entry.parentPath, entry.name);
    out.push(`${path.relative(folder, full)}:${(await lstat(full)).isSymbolicLink() ? 'link' : entry.isDirectory() ? 'dir' : 'file'}`);
  }
  return out.sort();
}

describe('packProject', () => {
  it('packs plain files, a link to a file inside as its bytes, and a hard-linked file twice as bytes', async () => {
    const project = path.join(dir, 'ok');
    await mkdir(path.join(project, 'assets'), { recursive: true });
    await writeFile(path.join(project, 'index.html'), '<html></html>');
    await writeFile(path.join(project, 'assets', 'a.txt'), 'a');
    await symlink(path.join(project, 'assets', 'a.txt'), path.join(project, 'alias.txt'));
    await link(path.join(project, 'assets', 'a.txt'), path.join(project, 'hard.txt'));
    const archive = path.join(dir, 'ok.tar.gz');
    await packProject(project, archive);
    const target = path.join(dir, 'ok-out');
    await extractProject(archive, target);
    expect(await listing(target)).toEqual(['alias.txt:file', 'assets/a.txt:file', 'assets:dir', 'hard.txt:file', 'index.html:file']);
    expect(await readFile(path.join(target, 'alias.txt'), 'utf8')).toBe('a');
    expect(await readFile(path.join(target, 'hard.txt'), 'utf8')).toBe('a');
  });

  it.each([
    [
      'a link to a file outside',
      'leak.txt',
      () => path.join(dir, 'secret.txt'),
      /leak\.txt in the project is a symbolic link to something outside the project folder/,
    ],
    ['a link to a folder outside', 'up', () => dir, /up in the project is a symbolic link to something outside the project folder/],
    ['a link to a folder inside', 'same', () => '.', /same in the project is a symbolic link to a folder/],
  ])('refuses %s with path-outside-project naming it', async (_what, name, target, message) => {
    const project = await mkdtemp(path.join(dir, 'bad-'));
    await writeFile(path.join(project, 'index.html'), '<html></html>');
    await symlink(target(), path.join(project, name));
    const attempt = packProject(project, path.join(project, '..', `${path.basename(project)}.tar.gz`));
    await expect(attempt).rejects.toMatchObject({ code: 'path-outside-project', details: { file: name } });
    await expect(attempt).rejects.toThrow(message);
    await expect(attempt).rejects.not.toThrow(dir);
  });
});

describe('extractProject refuses an archive a client crafted, before writing anything', () => {
  it.each([
    [
      'a symlink to a file outside',
      async (src: string) => symlink(path.join(dir, 'secret.txt'), path.join(src, 'leak.txt')),
      ['index.html', 'leak.txt'],
      /"leak\.txt" is a symbolic link/,
    ],
    [
      'a symlink to a folder outside',
      async (src: string) => symlink(dir, path.join(src, 'up')),
      ['index.html', 'up'],
      /"up" is a symbolic link/,
    ],
    [
      'a hard link',
      async (src: string) => link(path.join(src, 'index.html'), path.join(src, 'hard.html')),
      ['index.html', 'hard.html'],
      /"hard\.html" is a hard link/,
    ],
  ])('%s', async (_what, add, entries, message) => {
    const src = await mkdtemp(path.join(dir, 'src-'));
    await writeFile(path.join(src, 'index.html'), '<html></html>');
    await add(src);
    const archive = await craft(path.basename(src), src, entries);
    const target = path.join(dir, `${path.basename(src)}-out`);
    await expect(extractProject(archive, target)).rejects.toMatchObject({
      code: 'path-outside-project',
      message: expect.stringMatching(message),
    });
    expect(await listing(target)).toEqual([]);
  });

  it('an entry whose path leaves the folder (../, absolute)', async () => {
    const src = path.join(dir, 'deep', 'src');
    await mkdir(src, { recursive: true });
    await writeFile(path.join(src, 'index.html'), '<html></html>');
    await writeFile(path.join(dir, 'deep', 'escape.txt'), 'escape');
    const archive = await craft('paths', src, ['index.html', '../escape.txt', path.join(dir, 'secret.txt')], { preservePaths: true });
    const target = path.join(dir, 'paths-out', 'project');
    await expect(extractProject(archive, target)).rejects.toMatchObject({
      code: 'path-outside-project',
      message: expect.stringMatching(/"\.\.\/escape\.txt" has a "\." or "\.\." segment.*is absolute/),
    });
    expect(await listing(path.join(dir, 'paths-out'))).toEqual([]);
  });
});
