import { describe, expect, it } from 'vitest';
import type { WebhookPost } from '@seekframe/producer/webhooks';
import { createRenderApi } from './create-render-api.js';
import { createMemoryJobStore } from './memory-job-store.js';
import type { FileSource, ObjectStore, RenderRunner } from './ports.js';
import type { JobUpdate } from './render-job.js';
import { renderApiSettingsFromEnv } from './render-api-settings.js';

/**
 * The wiring of webhooks for a runner that renders elsewhere (`detached`, the Vercel sandbox):
 * the API learns the render's progress by polling, and its webhook hears each change once.
 * Deliveries go to an in-memory sender here (the HTTP side is covered by the contract suite).
 */
const composition: FileSource = {
  read: async (path) =>
    path === 'index.html'
      ? { body: `<html data-composition-id="u" data-width="16" data-height="16" data-duration="1" data-fps="10"></html>` }
      : null,
};

describe('webhooks of a detached render (learnt by polling)', () => {
  it('sends started, progress, then completed with an absolute URL, each once, and lists the attempts in the status', async () => {
    const posts: { type: string; data: Record<string, unknown> }[] = [];
    const send = async (post: WebhookPost) => {
      posts.push(JSON.parse(post.body));
      return { status: 200 };
    };
    const updates: (JobUpdate | null)[] = [
      { status: 'running', stage: 'capture', framesRendered: 4, totalFrames: 10, progress: 0.4 },
      null,
      {
        status: 'completed',
        stage: 'finish',
        framesRendered: 10,
        progress: 1,
        result: { url: '/api/render/j1', key: 'renders/j1.mp4', durationMs: 900, size: 1234 },
      },
    ];
    const runner: RenderRunner = {
      start: async () => ({ kind: 'detached' }),
      cancel: async () => undefined,
      poll: async () => updates.shift() ?? null,
    };
    const objects = { head: async () => null, url: () => null } as unknown as ObjectStore;
    const pending: Promise<unknown>[] = [];
    const app = createRenderApi({
      runner,
      jobs: createMemoryJobStore(),
      objects,
      composition,
      answerMode: 'call-id',
      newId: () => 'j1',
      waitUntil: (promise) => void pending.push(promise),
      webhooks: { secret: 's', send, checkUrl: async () => undefined, progressIntervalMs: 0 },
    });
    const started = await app.request('http://render.example.test/api/render', {
      method: 'POST',
      body: JSON.stringify({ webhook: { url: 'https://hooks.example.test/x' } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(started.status).toBe(200);
    const settle = async () => {
      while (pending.length) await Promise.all(pending.splice(0));
    };
    await settle();
    for (let i = 0; i < 3; i++) {
      await app.request('http://render.example.test/api/render/j1', { headers: { accept: 'application/json' } });
      await settle();
    }
    expect(posts.map((p) => p.type)).toEqual(['render.started', 'render.progress', 'render.completed']);
    expect(posts[1]!.data).toMatchObject({ framesRendered: 4, totalFrames: 10, progress: 0.4 });
    expect(posts[2]!.data).toEqual({ url: 'http://render.example.test/api/render/j1', size: 1234, durationMs: 900, frames: 10 });
    const status = (await (await app.request('/api/render/j1', { headers: { accept: 'application/json' } })).json()) as {
      webhook: { url: string; attempts: { event: string; ok: boolean }[] };
    };
    expect(status.webhook.url).toBe('https://hooks.example.test/x');
    expect(status.webhook.attempts.map((a) => `${a.event}:${a.ok}`)).toEqual([
      'render.started:true',
      'render.progress:true',
      'render.completed:true',
    ]);
  });
});

describe('a detached render with a webhook that nobody polls', () => {
  it('is followed by the API itself until it ends, so render.completed goes out without a status request', async () => {
    const types: string[] = [];
    const send = async (post: WebhookPost) => {
      types.push((JSON.parse(post.body) as { type: string }).type);
      return { status: 200 };
    };
    const updates: (JobUpdate | null)[] = [
      null,
      { status: 'running', stage: 'capture', framesRendered: 2, totalFrames: 10, progress: 0.2 },
      null,
      {
        status: 'completed',
        stage: 'finish',
        framesRendered: 10,
        progress: 1,
        result: { url: '/api/render/j2', key: 'renders/j2.mp4', durationMs: 500, size: 99 },
      },
    ];
    let polls = 0;
    const runner: RenderRunner = {
      start: async () => ({ kind: 'detached' }),
      cancel: async () => undefined,
      poll: async () => {
        polls += 1;
        return updates.shift() ?? null;
      },
    };
    const pending: Promise<unknown>[] = [];
    const app = createRenderApi({
      runner,
      jobs: createMemoryJobStore(),
      objects: { head: async () => null, url: () => null } as unknown as ObjectStore,
      composition,
      answerMode: 'call-id',
      newId: () => 'j2',
      waitUntil: (promise) => void pending.push(promise),
      webhooks: { secret: 's', send, checkUrl: async () => undefined, progressIntervalMs: 0, followIntervalMs: 5 },
    });
    const started = await app.request('http://render.example.test/api/render', {
      method: 'POST',
      body: JSON.stringify({ webhook: { url: 'https://hooks.example.test/x' } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(started.status).toBe(200);
    // No GET /api/render/j2 at all: only what the platform keeps running after the answer.
    while (pending.length) await Promise.all(pending.splice(0));
    expect(types).toEqual(['render.started', 'render.progress', 'render.completed']);
    expect(polls).toBe(4); // stopped asking once the job ended
  });
});

describe('RENDER_WEBHOOK_* settings', () => {
  it('reads the secret and the loopback opt-in; a blank secret is refused, naming the variable', () => {
    expect(renderApiSettingsFromEnv({ RENDER_WEBHOOK_SECRET: ' abc ', RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' })).toMatchObject({
      webhookSecret: 'abc',
      webhookAllowLoopback: true,
    });
    expect(renderApiSettingsFromEnv({})).toMatchObject({ webhookAllowLoopback: false });
    expect(renderApiSettingsFromEnv({}).webhookSecret).toBeUndefined();
    expect(() => renderApiSettingsFromEnv({ RENDER_WEBHOOK_SECRET: '  ' })).toThrow(/RENDER_WEBHOOK_SECRET is set but blank/);
  });
});
