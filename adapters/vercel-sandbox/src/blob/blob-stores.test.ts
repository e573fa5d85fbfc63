import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireRenders, type RenderJob } from '@seekframe/render-api';
import { startBlobFake, type BlobFake } from '../testing/blob-fake-server.js';
import { createBlobJobStore } from './blob-job-store.js';
import { createBlobObjectStore } from './blob-object-store.js';

let fake: BlobFake;
const previousApiUrl = process.env.VERCEL_BLOB_API_URL;

beforeAll(async () => {
  fake = await startBlobFake();
  process.env.VERCEL_BLOB_API_URL = fake.apiUrl;
});
afterAll(async () => {
  process.env.VERCEL_BLOB_API_URL = previousApiUrl;
  await fake.close();
});

const job = (id: string, extra: Partial<RenderJob> = {}): RenderJob => ({
  id,
  status: 'queued',
  stage: null,
  progress: 0,
  framesRendered: 0,
  totalFrames: null,
  request: { variables: {}, format: 'mp4' },
  outputKey: `renders/${id}.mp4`,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 3600_000).toISOString(),
  ...extra,
});

describe('createBlobJobStore', () => {
  it('stores, reads and merges updates', async () => {
    const store = createBlobJobStore({ token: fake.token, access: 'public' });
    expect(await store.create(job('j1'))).toMatchObject({ created: true, job: { id: 'j1' } });
    expect(fake.pathnames()).toContain('jobs/j1.json');
    await store.update('j1', { status: 'running', stage: 'capture' });
    expect(await store.get('j1')).toMatchObject({ status: 'running', stage: 'capture', outputKey: 'renders/j1.mp4' });
    expect(await store.get('nope')).toBeNull();
    expect(await store.update('nope', { progress: 1 })).toBeNull();
  });

  it('concurrent updates from two writers both land (compare-and-swap on the etag)', async () => {
    const store = createBlobJobStore({ token: fake.token, access: 'public' });
    await store.create(job('j2'));
    await Promise.all([
      store.update('j2', { framesRendered: 5 }),
      store.update('j2', { stage: 'capture' }),
      store.update('j2', { totalFrames: 10 }),
    ]);
    expect(await store.get('j2')).toMatchObject({ framesRendered: 5, stage: 'capture', totalFrames: 10 });
  });

  it('a finished job keeps its ending (a late progress write does not revive a cancelled job)', async () => {
    const store = createBlobJobStore({ token: fake.token, access: 'public' });
    await store.create(job('j3'));
    await store.update('j3', { status: 'cancelled' });
    await store.update('j3', { status: 'running', progress: 0.5 });
    expect(await store.get('j3')).toMatchObject({ status: 'cancelled', progress: 0 });
  });

  it('a finished job still records its webhook attempts (render.completed is delivered after the job ended), and nothing else with them', async () => {
    const store = createBlobJobStore({ token: fake.token, access: 'public' });
    await store.create(job('j4'));
    await store.update('j4', { status: 'completed', progress: 1 });
    const attempts = [
      {
        eventId: 'e1',
        event: 'render.completed' as const,
        attempt: 1,
        at: new Date().toISOString(),
        status: 200,
        ok: true,
        durationMs: 3,
        willRetry: false,
      },
    ];
    await store.update('j4', { webhookAttempts: attempts, status: 'running', progress: 0.5 });
    expect(await store.get('j4')).toMatchObject({ status: 'completed', progress: 1, webhookAttempts: attempts });
  });

  it('countActive counts queued and running jobs until they finish, and ignores stale markers', async () => {
    const store = createBlobJobStore({ token: fake.token, access: 'public', prefix: 'count/' });
    await store.create(job('c1'));
    await store.create(job('c2'));
    expect(await store.countActive?.()).toBe(2);
    await store.update('c1', { status: 'running' });
    expect(await store.countActive?.()).toBe(2);
    await store.update('c1', { status: 'completed' });
    await store.update('c2', { status: 'cancelled' });
    expect(await store.countActive?.()).toBe(0);
    await store.create(job('c3'));
    const stale = createBlobJobStore({ token: fake.token, access: 'public', prefix: 'count/', staleAfterMs: -1000 });
    expect(await stale.countActive?.()).toBe(0);
  });

  it('one Idempotency-Key makes one job, even for concurrent creates', async () => {
    const store = createBlobJobStore({ token: fake.token, access: 'private' });
    const results = await Promise.all([
      store.create(job('k1', { idempotencyKey: 'same' })),
      store.create(job('k2', { idempotencyKey: 'same' })),
    ]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.find((r) => r.created)?.job.id;
    expect(results.find((r) => !r.created)?.job.id).toBe(winner);
    expect((await store.findByIdempotencyKey('same'))?.id).toBe(winner);
    expect(await store.findByIdempotencyKey('other')).toBeNull();
  });
});

describe('createBlobObjectStore', () => {
  it('create-only puts, ranges, and the blob URL for a public store', async () => {
    const objects = createBlobObjectStore({ token: fake.token, access: 'public' });
    expect(
      await objects.put('renders/a.mp4', new TextEncoder().encode('0123456789'), { contentType: 'video/mp4', ifNoneMatch: '*' }),
    ).toEqual({ created: true });
    expect(await objects.put('renders/a.mp4', 'other', { contentType: 'video/mp4', ifNoneMatch: '*' })).toEqual({ created: false });
    expect(await objects.head('renders/a.mp4')).toMatchObject({ key: 'renders/a.mp4', size: 10, contentType: 'video/mp4' });
    const part = await objects.get('renders/a.mp4', { start: 3, end: 5 });
    expect(await new Response(part?.body).text()).toBe('345');
    expect(part?.info.size).toBe(10);
    const url = await objects.url('renders/a.mp4');
    expect(await (await fetch(url as string)).text()).toBe('0123456789');
    expect(await objects.get('renders/none.mp4')).toBeNull();
    await objects.delete('renders/a.mp4');
    expect(await objects.head('renders/a.mp4')).toBeNull();
  });

  it('a private store has no public URL (the API streams it) but reads with the token', async () => {
    const objects = createBlobObjectStore({ token: fake.token, access: 'private' });
    await objects.put('renders/p.mp4', 'private bytes', { contentType: 'video/mp4' });
    expect(await objects.url('renders/p.mp4')).toBeNull();
    expect(await new Response((await objects.get('renders/p.mp4'))?.body).text()).toBe('private bytes');
  });

  it('lists renders with their upload time, so expireRenders deletes those past retention (Blob has no lifecycle rule)', async () => {
    const store = createBlobObjectStore({ token: fake.token, access: 'public' });
    await store.put('renders/old.mp4', 'OLD', { contentType: 'video/mp4' });
    await store.put('renders/new.mp4', 'NEW', { contentType: 'video/mp4' });
    await store.put('jobs/keep.json', '{}', { contentType: 'application/json' });
    const listed = await store.list!('renders/');
    expect(listed.map((o) => o.key)).toEqual(expect.arrayContaining(['renders/new.mp4', 'renders/old.mp4']));
    expect(listed.every((o) => o.key.startsWith('renders/'))).toBe(true);
    const uploaded = Math.max(...listed.map((o) => new Date(o.uploadedAt).getTime()));
    // Within retention: nothing goes.
    expect(await expireRenders(store, 3600_000, uploaded + 1000)).toEqual([]);
    // Past it: both renders go, the job record stays.
    expect(await expireRenders(store, 1000, uploaded + 5000)).toEqual(expect.arrayContaining(['renders/new.mp4', 'renders/old.mp4']));
    expect(fake.pathnames().filter((p) => p.startsWith('renders/'))).toEqual([]);
    expect(fake.pathnames()).toContain('jobs/keep.json');
  });
});
