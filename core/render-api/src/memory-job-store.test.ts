import { describe, expect, it } from 'vitest';
import { createMemoryJobStore } from './memory-job-store.js';
import type { RenderJob } from './render-job.js';

const job = (id: string): RenderJob => ({
  id,
  status: 'running',
  stage: 'capture',
  progress: 0.5,
  framesRendered: 5,
  totalFrames: 10,
  request: { variables: {}, format: 'mp4', quality: 'draft' },
  outputKey: `renders/${id}.mp4`,
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
  expiresAt: '2026-11-27T00:00:00.000Z',
});

const attempt = {
  eventId: 'evt_1',
  event: 'render.failed' as const,
  attempt: 1,
  at: '2026-11-26T00:00:01.000Z',
  status: 200,
  ok: true,
  durationMs: 3,
  willRetry: false,
};

describe('job store updates (mergeJobUpdate, shared by every store)', () => {
  it('a cancelled job stays cancelled whatever the runner reports next; its webhook attempts still change', async () => {
    const store = createMemoryJobStore();
    await store.create(job('a'));
    await store.update('a', { status: 'cancelled', error: { code: 'render-cancelled', message: 'stopped', retryable: false } });
    // A late progress write and a late completion (the render finished while the cancel was on its way).
    await store.update('a', { status: 'running', progress: 0.9 });
    await store.update('a', { status: 'completed', result: { url: '/x', key: 'renders/a.mp4', durationMs: 1 } });
    const after = await store.get('a');
    expect(after).toMatchObject({ status: 'cancelled', progress: 0.5, error: { code: 'render-cancelled' } });
    expect(after?.result).toBeUndefined();
    await store.update('a', { webhookAttempts: [attempt] });
    expect((await store.get('a'))?.webhookAttempts).toEqual([attempt]);
  });

  it('a running job takes every field and a fresh updatedAt', async () => {
    const store = createMemoryJobStore({ now: () => new Date('2026-11-26T01:00:00.000Z') });
    await store.create(job('b'));
    expect(await store.update('b', { progress: 0.75, framesRendered: 7 })).toMatchObject({
      progress: 0.75,
      framesRendered: 7,
      updatedAt: '2026-11-26T01:00:00.000Z',
    });
  });
});
