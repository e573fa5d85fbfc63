import { mkdtemp, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFolderObjectStore } from './folder-object-store.js';
import { folderSource } from './folder-source.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-api-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = async (body: ReadableStream<Uint8Array>) => new Response(body).text();

describe('createFolderObjectStore', () => {
  it('put/head/get/delete with ranges; streams and strings alike', async () => {
    const store = createFolderObjectStore(dir);
    await store.put('renders/a.mp4', new Response('0123456789').body!, { contentType: 'video/mp4' });
    expect(await store.head('renders/a.mp4')).toMatchObject({ key: 'renders/a.mp4', size: 10, contentType: 'video/mp4', etag: expect.any(String) });
    expect(await text((await store.get('renders/a.mp4'))!.body)).toBe('0123456789');
    const part = (await store.get('renders/a.mp4', { start: 2, end: 4 }))!;
    expect(await text(part.body)).toBe('234');
    expect(part.info.size).toBe(10);
    expect(await text((await store.get('renders/a.mp4', { start: 7 }))!.body)).toBe('789');
    await store.put('renders/a.mp4', 'new');
    expect(await text((await store.get('renders/a.mp4'))!.body)).toBe('new');
    await store.delete('renders/a.mp4');
    expect(await store.head('renders/a.mp4')).toBeNull();
    expect(await store.get('renders/a.mp4')).toBeNull();
    expect(store.url('renders/a.mp4')).toBeNull();
  });

  it("ifNoneMatch '*' creates only once, even when two writers race", async () => {
    const store = createFolderObjectStore(dir);
    const results = await Promise.all([store.put('k.json', 'first', { ifNoneMatch: '*' }), store.put('k.json', 'second', { ifNoneMatch: '*' })]);
    expect(results.map((r) => r?.created).sort()).toEqual([false, true]);
    expect(['first', 'second']).toContain(await text((await store.get('k.json'))!.body));
  });

  it('refuses keys that could leave the folder', async () => {
    const store = createFolderObjectStore(dir);
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '', 'a\\b']) {
      await expect(store.put(key, 'x')).rejects.toMatchObject({ code: 'invalid-options' });
    }
  });
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
