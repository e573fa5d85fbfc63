import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QueueStatus } from '../src/index.js';
import type { ProducerServerEvent } from '../src/server/server-events.js';
import { probe } from './helpers/media-tools.js';
import { useGatedServer } from './helpers/gated-server.js';
import { getJson, openGate, streamRender } from './helpers/server-client.js';

const fx = useGatedServer(['gated-fifo', 'gated-running', 'gated-next', 'gated-blocking']);

const queueStatus = async () => (await getJson<QueueStatus>(`${fx.server.url}/render/queue`)).body;

async function download(outputUrl: string): Promise<string> {
  const response = await fetch(`${fx.server.url}${outputUrl}`);
  expect(response.status).toBe(200);
  const file = path.join(fx.project.dir, `download-${path.basename(outputUrl)}.mp4`);
  await writeFile(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

describe('producer server queue (max 1 concurrent render)', () => {
  it('3 concurrent streams: positions 1 and 2, FIFO completion, correct queue status mid-run', async () => {
    const finished: string[] = [];
    const track = (name: string, client: ReturnType<typeof streamRender>) => client.done.then(() => finished.push(name));

    const a = streamRender(fx.server.url, { projectDir: 'gated-fifo', workers: 1 });
    track('a', a);
    await a.next((e) => e.type === 'progress');
    const b = streamRender(fx.server.url, { projectDir: 'tiny', workers: 1 });
    track('b', b);
    const bQueued = await b.next((e) => e.type === 'queued');
    const c = streamRender(fx.server.url, { projectDir: 'tiny', workers: 1, quality: 'draft' });
    track('c', c);
    const cQueued = await c.next((e) => e.type === 'queued');
    expect(bQueued).toMatchObject({ type: 'queued', position: 1 });
    expect(cQueued).toMatchObject({ type: 'queued', position: 2 });
    expect(await queueStatus()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 2 });

    await openGate(path.join(fx.project.dir, 'gated-fifo'));
    const [aEvents, bEvents, cEvents] = await Promise.all([a.done, b.done, c.done]);
    expect(finished).toEqual(['a', 'b', 'c']);
    // c moved up to position 1 when a finished and b started.
    expect(cEvents.filter((e) => e.type === 'queued').map((e) => (e as { position: number }).position)).toEqual([2, 1]);
    for (const events of [aEvents, bEvents, cEvents]) {
      const finals = events.filter((e) => e.type === 'complete' || e.type === 'error' || e.type === 'cancelled');
      expect(finals).toHaveLength(1);
      const complete = finals[0] as Extract<ProducerServerEvent, { type: 'complete' }>;
      expect(complete.type, JSON.stringify(complete)).toBe('complete');
      expect(complete.outputUrl).toMatch(/^\/outputs\/[A-Za-z0-9_-]{32}$/);
      expect(events.some((e) => e.type === 'progress')).toBe(true);
      const probed = await probe(await download(complete.outputUrl));
      expect(probed.streams[0]).toMatchObject({ codec_name: 'h264', width: 32, height: 32, nb_read_frames: '2' });
    }
    expect(await queueStatus()).toEqual({ maxConcurrentRenders: 1, activeRenders: 0, queuedRenders: 0 });
  });

  it('a waiting client that disconnects leaves the line; a running one that disconnects is cancelled and frees its slot', async () => {
    const before = new Set(await readdir(fx.server.config.outputsDir));
    const running = streamRender(fx.server.url, { projectDir: 'gated-running', workers: 1 });
    await running.next((e) => e.type === 'progress');
    const leaver = streamRender(fx.server.url, { projectDir: 'tiny', workers: 1 });
    await leaver.next((e) => e.type === 'queued');
    const next = streamRender(fx.server.url, { projectDir: 'gated-next', workers: 1 });
    expect(await next.next((e) => e.type === 'queued')).toMatchObject({ position: 2 });

    leaver.disconnect();
    // The one behind it hears its new place; the status agrees.
    await next.next((e) => e.type === 'queued' && e.position === 1);
    expect(await queueStatus()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 1 });

    // The running render's gate never opens: only cancelling it can hand the slot to `next`.
    running.disconnect();
    await next.next((e) => e.type === 'progress');
    expect(await queueStatus()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 0 });
    // Nothing of the cancelled render is left in the outputs folder (no partial file either).
    expect((await readdir(fx.server.config.outputsDir)).filter((name) => !before.has(name))).toEqual([]);

    await openGate(path.join(fx.project.dir, 'gated-next'));
    const events = await next.done;
    expect(events.at(-1), JSON.stringify(events.at(-1))).toMatchObject({ type: 'complete' });
    expect((await readdir(fx.server.config.outputsDir)).filter((name) => !before.has(name))).toHaveLength(1);
    expect(await queueStatus()).toEqual({ maxConcurrentRenders: 1, activeRenders: 0, queuedRenders: 0 });
  });

  it('a blocking POST /render client that disconnects while waiting leaves the line', async () => {
    const running = streamRender(fx.server.url, { projectDir: 'gated-blocking', workers: 1 });
    await running.next((e) => e.type === 'progress');
    const controller = new AbortController();
    const blocking = fetch(`${fx.server.url}/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectDir: 'tiny', workers: 1 }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    while ((await queueStatus()).queuedRenders !== 1) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect(await blocking).toBeInstanceOf(Error);
    while ((await queueStatus()).queuedRenders !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await queueStatus()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 0 });
    await openGate(path.join(fx.project.dir, 'gated-blocking'));
    expect((await running.done).at(-1)?.type).toBe('complete');
  });
});
