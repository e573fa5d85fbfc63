import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getFile, getText, putFile } from '@seekframe/producer';
import { listKeys } from '@seekframe/producer/distributed';
import { startLocalS3, type LocalS3 } from './support/local-s3.js';

describe('S3 storage port (s3rver)', () => {
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

  it('puts, heads, lists, reads (whole and ranged), deletes and presigns', async () => {
    await s3.store.put('renders/a/x.json', '{"a":1}', { contentType: 'application/json' });
    await s3.store.put('renders/a/y.json', '{"b":2}');
    expect(await getText(s3.store, 'renders/a/x.json')).toBe('{"a":1}');
    expect(await getText(s3.store, 'renders/a/missing.json')).toBeNull();
    expect(await s3.store.head('renders/a/y.json')).toMatchObject({ key: 'renders/a/y.json', size: 7, uploadedAt: expect.any(Date) });
    expect(await s3.store.head('renders/a/x.json')).toMatchObject({ contentType: 'application/json' });
    expect(await s3.store.head('renders/a/nope')).toBeNull();
    expect(await listKeys(s3.store, 'renders/a/')).toEqual(['renders/a/x.json', 'renders/a/y.json']);
    const part = await s3.store.get('renders/a/x.json', { start: 1, end: 4 });
    expect(await new Response(part!.body).text()).toBe('"a":');
    expect(part!.info.size).toBe(7);
    await s3.store.put('renders/a/z.json', '{}');
    await s3.store.delete('renders/a/z.json');
    await s3.store.delete('renders/a/never.json');
    expect(await s3.store.head('renders/a/z.json')).toBeNull();
    const url = await s3.store.url('renders/a/x.json');
    const answer = await fetch(url!);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"a":1}');
  });

  it('refuses the keys every store of the port refuses (invalid-storage-key), as the local folder store does', async () => {
    for (const key of ['../x.json', 'renders/../x', '/abs', 'renders/.hidden', 'a//b', '']) {
      for (const call of [
        () => s3.store.put(key, 'x'),
        () => s3.store.get(key),
        () => s3.store.head(key),
        () => s3.store.delete(key),
        () => s3.store.url(key),
      ]) {
        await expect(call(), key).rejects.toMatchObject({ code: 'invalid-storage-key' });
      }
    }
  });

  it('uploads (through the SDK Upload, multipart above 16 MiB) and downloads files', async () => {
    const source = path.join(dir, 'in.bin');
    const data = Buffer.alloc(3 * 1024 * 1024, 7);
    await writeFile(source, data);
    expect(await putFile(s3.store, 'renders/a/out.bin', source)).toEqual({ size: data.length, created: true });
    const target = path.join(dir, 'back.bin');
    expect(await getFile(s3.store, 'renders/a/out.bin', target)).toBe(true);
    expect((await readFile(target)).equals(data)).toBe(true);
    expect(await getFile(s3.store, 'renders/a/none.bin', target)).toBe(false);
  });

  it('reports a conditional write on an existing key as not created (strict store honours If-None-Match)', async () => {
    expect(await strict.store.put('renders/b/request.json', 'first', { ifNoneMatch: '*' })).toEqual({ created: true });
    expect(await strict.store.put('renders/b/request.json', 'second', { ifNoneMatch: '*' })).toEqual({ created: false });
    expect(await getText(strict.store, 'renders/b/request.json')).toBe('first');
  });
});

describe('short-lived objects', () => {
  it('carry the lifecycle tag the 3-day rule matches, by their key (PUT header; Upload via PutObjectTagging)', async () => {
    const { GetObjectTaggingCommand } = await import('@aws-sdk/client-s3');
    const { SHORT_LIVED_TAG } = await import('../src/short-lived-keys.js');
    const s3 = await startLocalS3();
    // s3rver ignores x-amz-tagging on PutObject (real S3 applies it), so the PUT is checked as the
    // request the SDK sends; the Upload path (PutObjectTagging) is checked in s3rver itself.
    const sent: { path: string; tagging: string | undefined }[] = [];
    s3.client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { path?: string; method?: string; headers?: Record<string, string> };
        if (request.method === 'PUT') sent.push({ path: request.path ?? '', tagging: request.headers?.['x-amz-tagging'] });
        return next(args);
      },
      { step: 'finalizeRequest', name: 'recordTagging' },
    );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-s3-tag-'));
    try {
      await s3.store.put('renders/t/progress/00000.json', '{}');
      await s3.store.put('renders/t/status.json', '{}');
      expect(sent.find((r) => r.path.endsWith('/progress/00000.json'))?.tagging).toBe(`${SHORT_LIVED_TAG.key}=${SHORT_LIVED_TAG.value}`);
      expect(sent.find((r) => r.path.endsWith('/status.json'))?.tagging).toBeUndefined();
      const file = path.join(dir, 'c.mp4');
      await writeFile(file, Buffer.alloc(1024));
      await putFile(s3.store, 'renders/t/chunks/00000.mp4', file, { contentType: 'video/mp4' });
      await putFile(s3.store, 'renders/t/out.mp4', file, { contentType: 'video/mp4' });
      const tags = async (key: string) => (await s3.client.send(new GetObjectTaggingCommand({ Bucket: s3.bucket, Key: key }))).TagSet ?? [];
      expect(await tags('renders/t/chunks/00000.mp4')).toEqual([{ Key: SHORT_LIVED_TAG.key, Value: SHORT_LIVED_TAG.value }]);
      expect(await tags('renders/t/out.mp4')).toEqual([]);
    } finally {
      await s3.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
