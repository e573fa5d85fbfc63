import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLocalS3, type LocalS3 } from './support/local-s3.js';

describe('S3 object store (s3rver)', () => {
  let s3: LocalS3;
  let strict: LocalS3;
  let dir: string;
  beforeAll(async () => {
    s3 = await startLocalS3();
    strict = await startLocalS3({ strict: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-s3-test-'));
  });
  afterAll(async () => {
    await s3?.close();
    await strict?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('puts, heads, lists, reads and presigns', async () => {
    await s3.store.put('renders/a/x.json', '{"a":1}', { contentType: 'application/json' });
    await s3.store.put('renders/a/y.json', '{"b":2}');
    expect(await s3.store.getText('renders/a/x.json')).toBe('{"a":1}');
    expect(await s3.store.getText('renders/a/missing.json')).toBeNull();
    expect(await s3.store.head('renders/a/y.json')).toEqual({ size: 7 });
    expect(await s3.store.head('renders/a/nope')).toBeNull();
    expect(await s3.store.list('renders/a/')).toEqual(['renders/a/x.json', 'renders/a/y.json']);
    const url = await s3.store.presign('renders/a/x.json', 60);
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"a":1}');
  });

  it('uploads and downloads files (multipart above the part size is the SDK Upload)', async () => {
    const source = path.join(dir, 'in.bin');
    const data = Buffer.alloc(3 * 1024 * 1024, 7);
    await writeFile(source, data);
    expect(await s3.store.putFile('renders/a/out.bin', source, 'application/octet-stream')).toEqual({ size: data.length });
    const target = path.join(dir, 'back.bin');
    expect(await s3.store.getFile('renders/a/out.bin', target)).toBe(true);
    expect((await readFile(target)).equals(data)).toBe(true);
    expect(await s3.store.getFile('renders/a/none.bin', target)).toBe(false);
  });

  it('reports a conditional write on an existing key as not created (strict store honours If-None-Match)', async () => {
    expect(await strict.store.put('renders/b/request.json', 'first', { ifNoneMatch: '*' })).toEqual({ created: true });
    expect(await strict.store.put('renders/b/request.json', 'second', { ifNoneMatch: '*' })).toEqual({ created: false });
    expect(await strict.store.getText('renders/b/request.json')).toBe('first');
  });
});
