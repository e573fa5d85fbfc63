import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Miniflare } from 'miniflare';
import { createR2ObjectStore, r2ObjectUrl } from '../src/r2-object-store.js';
import { parseRange } from '../src/serve-r2-object.js';

/** The R2 object store on Miniflare's real local R2 (the bucket reached from Node through Miniflare's binding proxy). */
let mf: Miniflare;
let bucket: R2Bucket;

beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    script: 'export default { fetch() { return new Response(null, { status: 404 }); } }',
    r2Buckets: ['RENDERS'],
    compatibilityDate: '2026-04-01',
  });
  bucket = (await mf.getR2Bucket('RENDERS')) as unknown as R2Bucket;
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
});

async function text(body: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(body).text();
}

describe('createR2ObjectStore', () => {
  it('put with ifNoneMatch "*" creates once and never overwrites (idempotent create)', async () => {
    const store = createR2ObjectStore(bucket);
    expect(await store.put('renders/a.json', '{"n":1}', { contentType: 'application/json', ifNoneMatch: '*' })).toEqual({ created: true });
    expect(await store.put('renders/a.json', '{"n":2}', { contentType: 'application/json', ifNoneMatch: '*' })).toEqual({ created: false });
    const got = await store.get('renders/a.json');
    expect(await text(got!.body)).toBe('{"n":1}');
    expect(got!.info).toMatchObject({ key: 'renders/a.json', size: 7, contentType: 'application/json' });
    // Without the condition it overwrites.
    expect(await store.put('renders/a.json', '{"n":3}')).toEqual({ created: true });
    expect(await text((await store.get('renders/a.json'))!.body)).toBe('{"n":3}');
  });

  it('get with a range gives those bytes and the whole size; head, delete and missing keys', async () => {
    const store = createR2ObjectStore(bucket);
    await store.put('renders/b.bin', new TextEncoder().encode('0123456789'), { contentType: 'application/octet-stream' });
    const part = await store.get('renders/b.bin', { start: 2, end: 5 });
    expect(await text(part!.body)).toBe('2345');
    expect(part!.info.size).toBe(10);
    expect(await text((await store.get('renders/b.bin', { start: 7 }))!.body)).toBe('789');
    expect(await store.head('renders/b.bin')).toMatchObject({
      size: 10,
      contentType: 'application/octet-stream',
      etag: expect.any(String),
    });
    await store.delete('renders/b.bin');
    expect(await store.head('renders/b.bin')).toBeNull();
    expect(await store.get('renders/b.bin')).toBeNull();
  });

  it('a stream of unknown length is stored whole (read first: R2 refuses such a stream)', async () => {
    const store = createR2ObjectStore(bucket);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('chunk-1 '));
        controller.enqueue(new TextEncoder().encode('chunk-2'));
        controller.close();
      },
    });
    expect(await store.put('renders/c.txt', stream, { contentType: 'text/plain' })).toEqual({ created: true });
    expect(await text((await store.get('renders/c.txt'))!.body)).toBe('chunk-1 chunk-2');
  });

  it("url(key) is the Worker route /r/<key>, or the bucket's public URL when set, with each segment encoded", () => {
    expect(createR2ObjectStore(bucket).url('renders/x y.mp4')).toBe('/r/renders/x%20y.mp4');
    expect(createR2ObjectStore(bucket, { publicUrl: 'https://media.example.com/' }).url('renders/id.mp4')).toBe(
      'https://media.example.com/renders/id.mp4',
    );
    expect(r2ObjectUrl('renders/id.mp4')).toBe('/r/renders/id.mp4');
  });
});

describe('parseRange (GET /r/<key>)', () => {
  it('reads one range of a 100-byte file, ignores what it cannot read, and refuses what is out of bounds', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=95-200', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});
