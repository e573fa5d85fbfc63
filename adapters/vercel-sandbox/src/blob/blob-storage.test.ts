import { completeMultipartUpload, createMultipartUpload, uploadPart } from '@vercel/blob';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBlobFake, type BlobFake } from '../testing/blob-fake-server.js';
import { BlobStorage } from './blob-storage.js';

let fake: BlobFake;
let storage: BlobStorage;
const previousApiUrl = process.env.VERCEL_BLOB_API_URL;

beforeAll(async () => {
  fake = await startBlobFake();
  process.env.VERCEL_BLOB_API_URL = fake.apiUrl;
  storage = new BlobStorage({ token: fake.token, access: 'public' });
});
afterAll(async () => {
  process.env.VERCEL_BLOB_API_URL = previousApiUrl;
  await fake.close();
});

describe('BlobStorage through the real @vercel/blob client', () => {
  it('puts, refuses a second create, overwrites on request and reads back with head()+fetch', async () => {
    const first = await storage.put('jobs/a.json', '{"n":1}', { contentType: 'application/json', overwrite: false });
    expect(first.created).toBe(true);
    expect(await storage.put('jobs/a.json', '{"n":2}', { contentType: 'application/json', overwrite: false })).toEqual({ created: false });
    expect((await storage.readJson<{ n: number }>('jobs/a.json'))?.value).toEqual({ n: 1 });
    await storage.put('jobs/a.json', '{"n":3}', { contentType: 'application/json', overwrite: true });
    const read = await storage.readJson<{ n: number }>('jobs/a.json');
    expect(read?.value).toEqual({ n: 3 });
    expect(await storage.head('jobs/missing.json')).toBeNull();
    expect(await storage.read('jobs/missing.json')).toBeNull();
  });

  it('ifMatch is a compare-and-swap: a stale etag is refused', async () => {
    await storage.put('cas.json', '{"v":1}', { contentType: 'application/json', overwrite: false });
    const etag = (await storage.head('cas.json'))?.etag as string;
    await storage.put('cas.json', '{"v":2}', { contentType: 'application/json', overwrite: true, ifMatch: etag });
    await expect(storage.put('cas.json', '{"v":3}', { contentType: 'application/json', overwrite: true, ifMatch: etag })).rejects.toThrow(
      /precondition/i,
    );
    expect((await storage.readJson<{ v: number }>('cas.json'))?.value).toEqual({ v: 2 });
  });

  it('reads a byte range, lists by prefix and deletes', async () => {
    await storage.put('renders/x.bin', Buffer.from('0123456789'), { contentType: 'application/octet-stream', overwrite: false });
    const ranged = await storage.read('renders/x.bin', { start: 2, end: 5 });
    expect(ranged?.response.status).toBe(206);
    expect(await ranged?.response.text()).toBe('2345');
    await storage.put('renders/y.bin', 'y', { contentType: 'text/plain', overwrite: false });
    expect(await storage.list('renders/')).toEqual(['renders/x.bin', 'renders/y.bin']);
    await storage.delete('renders/x.bin');
    expect(await storage.list('renders/')).toEqual(['renders/y.bin']);
  });

  it('multipart: put({multipart}) of 20 MiB comes back identical', async () => {
    const body = randomBytes(20 * 1024 * 1024);
    await storage.put('big.bin', body, { contentType: 'application/octet-stream', overwrite: false, multipart: true });
    expect(fake.calls).toContain('POST mpu:complete');
    const read = await storage.read('big.bin');
    expect(Buffer.from(await (read!.response as Response).arrayBuffer()).equals(body)).toBe(true);
  });

  it('the fake sorts a complete list that arrives out of order (as the client sends it)', async () => {
    const options = { access: 'public' as const, token: fake.token };
    const { uploadId, key } = await createMultipartUpload('parts.bin', options);
    const parts = [];
    for (const n of [1, 2, 3])
      parts.push(await uploadPart('parts.bin', Buffer.from(`part${n};`), { ...options, uploadId, key, partNumber: n }));
    await completeMultipartUpload('parts.bin', [parts[2], parts[0], parts[1]] as typeof parts, { ...options, uploadId, key });
    expect(await (await storage.read('parts.bin'))?.response.text()).toBe('part1;part2;part3;');
  });

  it('private blobs are read with the token', async () => {
    const privateStorage = new BlobStorage({ token: fake.token, access: 'private' });
    await privateStorage.put('secret/p.json', '{"p":true}', { contentType: 'application/json', overwrite: false });
    const info = await privateStorage.head('secret/p.json');
    expect((await fetch(info?.url as string)).status).toBe(403);
    expect((await privateStorage.readJson('secret/p.json'))?.value).toEqual({ p: true });
  });
});
