import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { createLocalFolderStorage, type LocalFolderStorage } from './local-folder-storage.js';
import { parseStorageKey } from './storage-key.js';

let base: string;
let root: string;
let outside: string;
let storage: LocalFolderStorage;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'seekframe-storage-'));
  root = path.join(base, 'objects');
  outside = path.join(base, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'secret.txt'), 'secret');
  storage = createLocalFolderStorage({ root });
});
afterAll(async () => rm(base, { recursive: true, force: true }));

const text = async (body: ReadableStream<Uint8Array>): Promise<string> => new Response(body).text();
const codeOf = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof SeekframeError ? error.code : `not a SeekframeError: ${String(error)}`),
  );

describe('createLocalFolderStorage', () => {
  it('puts, heads, gets, overwrites and deletes, with nested keys and a content type from the extension', async () => {
    expect(await storage.head('renders/a.mp4')).toBeNull();
    expect(await storage.get('renders/a.mp4')).toBeNull();
    expect(await storage.put('renders/a.mp4', 'first version')).toEqual({ created: true });
    const info = await storage.head('renders/a.mp4');
    expect(info).toMatchObject({ key: 'renders/a.mp4', size: 13, contentType: 'video/mp4' });
    expect(typeof info?.etag).toBe('string');
    expect(await readFile(path.join(root, 'renders', 'a.mp4'), 'utf8')).toBe('first version');

    await storage.put('renders/a.mp4', new TextEncoder().encode('second'));
    const got = await storage.get('renders/a.mp4');
    expect(await text(got!.body)).toBe('second');
    expect(got!.info.size).toBe(6);
    expect(got!.info.etag).not.toBe(info?.etag);

    await storage.put('b.json', new Response('{"streamed":true}').body!);
    expect(await text((await storage.get('b.json'))!.body)).toBe('{"streamed":true}');
    await storage.put('c.bin', new Uint8Array([1, 2, 3]).buffer);
    expect((await storage.head('c.bin'))?.size).toBe(3);

    await storage.delete('renders/a.mp4');
    await storage.delete('renders/a.mp4');
    expect(await storage.head('renders/a.mp4')).toBeNull();

    // A key that goes "through" an object: nothing there to read, and no folder can be made.
    expect(await storage.get('b.json/inner')).toBeNull();
    expect(await storage.head('b.json/inner')).toBeNull();
    expect(await codeOf(storage.put('b.json/inner', 'x'))).toBe('storage-failed');
  });

  it('reads byte ranges (inclusive; end past the size is clamped; info.size is the whole object)', async () => {
    await storage.put('range.txt', '0123456789');
    const middle = await storage.get('range.txt', { start: 2, end: 5 });
    expect(await text(middle!.body)).toBe('2345');
    expect(middle!.info.size).toBe(10);
    expect(await text((await storage.get('range.txt', { start: 7 }))!.body)).toBe('789');
    expect(await text((await storage.get('range.txt', { start: 8, end: 100 }))!.body)).toBe('89');
    expect(await text((await storage.get('range.txt', { start: 10 }))!.body)).toBe('');
    expect(await codeOf(storage.get('range.txt', { start: -1 }))).toBe('invalid-options');
  });

  it('ifNoneMatch "*" creates only: a second put of the key changes nothing, and of racing puts exactly one wins', async () => {
    expect(await storage.put('once.txt', 'one', { ifNoneMatch: '*' })).toEqual({ created: true });
    expect(await storage.put('once.txt', 'two', { ifNoneMatch: '*' })).toEqual({ created: false });
    expect(await text((await storage.get('once.txt'))!.body)).toBe('one');

    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => storage.put('race.txt', `writer ${i}`, { ifNoneMatch: '*' })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.findIndex((r) => r.created);
    expect(await text((await storage.get('race.txt'))!.body)).toBe(`writer ${winner}`);
  });

  it('puts atomically: a failing body leaves the old object and no temp file; readers never see a part', async () => {
    await storage.put('atomic.txt', 'complete old object');
    const failing = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('half of a new'));
        controller.error(new Error('the upload broke'));
      },
    });
    expect(await codeOf(storage.put('atomic.txt', failing))).toBe('storage-failed');
    expect(await text((await storage.get('atomic.txt'))!.body)).toBe('complete old object');
    expect((await readdir(root)).filter((name) => name.startsWith('.'))).toEqual([]);

    // While a big put is being written, readers see the old object in full.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(new TextEncoder().encode('new '));
        await gate;
        controller.enqueue(new TextEncoder().encode('object'));
        controller.close();
      },
    });
    const writing = storage.put('atomic.txt', slow);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await text((await storage.get('atomic.txt'))!.body)).toBe('complete old object');
    release();
    await writing;
    expect(await text((await storage.get('atomic.txt'))!.body)).toBe('new object');
  });

  it('adopts a finished file from its temp path or from another folder, removing the source', async () => {
    const temp = storage.tempPath('.mp4');
    expect(path.dirname(temp)).toBe(root);
    expect(() => parseStorageKey(path.basename(temp))).toThrow();
    await writeFile(temp, 'encoded');
    expect(await storage.adoptFile('videos/x.mp4', temp)).toEqual({ created: true });
    expect(await text((await storage.get('videos/x.mp4'))!.body)).toBe('encoded');
    expect(await readdir(root)).not.toContain(path.basename(temp));

    const elsewhere = path.join(base, 'made-elsewhere.gif');
    await writeFile(elsewhere, 'gif bytes');
    expect(await storage.adoptFile('videos/y.gif', elsewhere, { ifNoneMatch: '*' })).toEqual({ created: true });
    expect((await storage.head('videos/y.gif'))?.contentType).toBe('image/gif');
    await expect(readFile(elsewhere)).rejects.toThrow();
  });

  it('refuses keys that leave the folder, also through a symlinked folder or a symlink as the object', async () => {
    for (const key of ['../outside/secret.txt', '/etc/passwd', 'a/../../outside/secret.txt']) {
      expect(await codeOf(storage.get(key))).toBe('invalid-storage-key');
      expect(await codeOf(storage.put(key, 'x'))).toBe('invalid-storage-key');
      expect(await codeOf(storage.head(key))).toBe('invalid-storage-key');
      expect(await codeOf(storage.delete(key))).toBe('invalid-storage-key');
    }
    await symlink(outside, path.join(root, 'door'));
    expect(await codeOf(storage.get('door/secret.txt'))).toBe('invalid-storage-key');
    expect(await codeOf(storage.head('door/secret.txt'))).toBe('invalid-storage-key');
    expect(await codeOf(storage.put('door/planted.txt', 'x'))).toBe('invalid-storage-key');
    expect(await codeOf(storage.put('door/deeper/planted.txt', 'x'))).toBe('invalid-storage-key');
    expect(await codeOf(storage.delete('door/secret.txt'))).toBe('invalid-storage-key');
    expect(await readdir(outside)).toEqual(['secret.txt']);

    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    expect(await codeOf(storage.get('link.txt'))).toBe('invalid-storage-key');
    expect(await codeOf(storage.head('link.txt'))).toBe('invalid-storage-key');
    // Deleting removes the link itself, never what it points at.
    await storage.delete('link.txt');
    expect(await readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('list(prefix) names the objects under a prefix with their info; temp files and symlinks are no objects', async () => {
    const store = createLocalFolderStorage({ root: path.join(base, 'listed') });
    await store.put('renders/a.mp4', 'aa');
    await store.put('renders/sub/b.mp4', 'b');
    await store.put('jobs/c.json', '{}');
    await writeFile(store.tempPath('.mp4'), 'partial');
    await symlink(path.join(outside, 'secret.txt'), path.join(base, 'listed', 'renders', 'link.mp4'));
    const listed = await store.list('renders/');
    expect(listed.map((o) => o.key).sort()).toEqual(['renders/a.mp4', 'renders/sub/b.mp4']);
    expect(listed.find((o) => o.key === 'renders/a.mp4')).toMatchObject({
      size: 2,
      contentType: 'video/mp4',
      uploadedAt: expect.any(String),
    });
    expect((await store.list('')).length).toBe(3);
  });

  it('url() is null without a public base, else the base plus the encoded key', () => {
    expect(storage.url('renders/a.mp4')).toBeNull();
    const published = createLocalFolderStorage({ root, publicBaseUrl: 'https://cdn.example/files/' });
    expect(published.url('renders/a b.mp4')).toBe('https://cdn.example/files/renders/a%20b.mp4');
    expect(() => published.url('../x')).toThrowError(expect.objectContaining({ code: 'invalid-storage-key' }));
  });

  it('prepare() removes temp files whose writer is gone and keeps those of live processes', async () => {
    const folder = path.join(base, 'sweep');
    await mkdir(folder);
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    await writeFile(path.join(folder, `.${gone}-00ff.tmp.mp4`), 'left by a killed writer');
    await writeFile(path.join(folder, `.${process.pid}-00aa.tmp`), 'ours, still being written');
    await writeFile(path.join(folder, 'kept.mp4'), 'an object');
    await createLocalFolderStorage({ root: folder }).prepare();
    expect((await readdir(folder)).sort()).toEqual([`.${process.pid}-00aa.tmp`, 'kept.mp4']);
  });
});
