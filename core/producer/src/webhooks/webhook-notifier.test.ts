import { describe, expect, it } from 'vitest';
import type { WebhookPost } from './deliver-webhook.js';
import { createWebhookNotifier } from './webhook-notifier.js';

/** The notifier's ordering and throttling rules (the HTTP side is deliver-webhook.test.ts). */
function harness(answers: (post: WebhookPost) => number = () => 200) {
  let clock = 1_000_000;
  const posts: { type: string; id: string; data: unknown; customData?: unknown }[] = [];
  const records: number[] = [];
  let n = 0;
  const notifier = createWebhookNotifier({
    renderId: 'r1',
    webhook: { url: 'https://hooks.example.test/x', customData: { order: 42 } },
    secret: 's',
    send: async (post) => {
      const event = JSON.parse(post.body) as { type: string; id: string; data: unknown; customData?: unknown };
      posts.push(event);
      return { status: answers(post) };
    },
    sleep: async () => undefined,
    now: () => clock,
    newEventId: () => `evt_${++n}`,
    record: (attempts) => void records.push(attempts.length),
  });
  return { notifier, posts, records, tick: (ms: number) => (clock += ms) };
}

describe('createWebhookNotifier', () => {
  it('sends started, progress at most once per interval, then completed; customData in each; nothing after the end', async () => {
    const { notifier, posts, tick } = harness();
    notifier.started();
    notifier.started();
    notifier.progress({ progress: 0.1, stage: 'capture', framesRendered: 1, totalFrames: 10 });
    tick(1000);
    notifier.progress({ progress: 0.2, stage: 'capture', framesRendered: 2, totalFrames: 10 }); // within 5 s: dropped
    tick(5000);
    notifier.progress({ progress: 0.8, stage: 'capture', framesRendered: 8, totalFrames: 10 });
    notifier.completed({ url: 'https://x/r1.mp4', size: 100, durationMs: 7000, frames: 10 });
    notifier.failed({ code: 'render-failed', message: 'late', retryable: true });
    notifier.progress({ progress: 1, stage: 'finish', framesRendered: 10, totalFrames: 10 });
    await notifier.settled();
    expect(posts.map((p) => [p.type, (p.data as { framesRendered?: number }).framesRendered])).toEqual([
      ['render.started', undefined],
      ['render.progress', 1],
      ['render.progress', 8],
      ['render.completed', undefined],
    ]);
    expect(posts.every((p) => JSON.stringify(p.customData) === '{"order":42}')).toBe(true);
    expect(new Set(posts.map((p) => p.id)).size).toBe(4);
  });

  it('a final event without a start sends started first; failed carries code, message and the documented fix', async () => {
    const { notifier, posts } = harness();
    notifier.completed({ url: '/api/render/r1', size: null, durationMs: null, frames: null });
    await notifier.settled();
    expect(posts.map((p) => p.type)).toEqual(['render.started', 'render.completed']);

    const failing = harness();
    failing.notifier.failed({ code: 'render-timeout', message: 'too slow', stage: 'capture', retryable: true });
    await failing.notifier.settled();
    expect(failing.posts).toMatchObject([
      {
        type: 'render.failed',
        data: {
          error: { code: 'render-timeout', message: 'too slow', stage: 'capture', retryable: true, fix: expect.stringMatching(/./) },
        },
      },
    ]);
  });

  it('retries started/completed but gives progress one attempt; every attempt is recorded in order', async () => {
    let calls = 0;
    const { notifier, posts, records } = harness((post) => (JSON.parse(post.body).type === 'render.progress' || ++calls <= 2 ? 500 : 200));
    notifier.started();
    notifier.progress({ progress: 0.5, stage: 'capture', framesRendered: 5, totalFrames: 10 });
    await notifier.settled();
    expect(posts.map((p) => p.type)).toEqual(['render.started', 'render.started', 'render.started', 'render.progress']);
    expect(records).toEqual([1, 2, 3, 4]);
  });
});
