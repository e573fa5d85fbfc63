import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createFolderObjectStore } from './folder-object-store.js';

describe('folder object store', () => {
  let dir: string;
  beforeAll(async () => void (dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-folder-store-'))));
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('stores, lists, honours If-None-Match and refuses keys outside the folder', async () => {
    const store = createFolderObjectStore(path.join(dir, 'bucket'));
    expect(await store.put('renders/a/request.json', 'one', { ifNoneMatch: '*' })).toEqual({ created: true });
    expect(await store.put('renders/a/request.json', 'two', { ifNoneMatch: '*' })).toEqual({ created: false });
    expect(await store.getText('renders/a/request.json')).toBe('one');
    await store.put('renders/a/progress/00000.json', '{}');
    await store.put('renders/a/progress/00001.json', '{}');
    await store.put('renders/ab/x.json', '{}');
    expect(await store.list('renders/a/progress/')).toEqual(['renders/a/progress/00000.json', 'renders/a/progress/00001.json']);
    expect(await store.list('renders/a/')).toEqual(['renders/a/progress/00000.json', 'renders/a/progress/00001.json', 'renders/a/request.json']);
    const source = path.join(dir, 'f.bin');
    await writeFile(source, 'abc');
    expect(await store.putFile('renders/a/out.mp4', source, 'video/mp4')).toEqual({ size: 3 });
    expect(await store.head('renders/a/out.mp4')).toEqual({ size: 3 });
    expect(await store.getText('renders/a/none')).toBeNull();
    await expect(store.put('../escape', 'x')).rejects.toMatchObject({ code: 'invalid-storage-key' });
    await expect(store.getText('renders/%2e%2e/x')).resolves.toBeNull();
    await expect(store.put('renders/a\\..\\x', 'x')).rejects.toMatchObject({ code: 'invalid-storage-key' });
  });
});
