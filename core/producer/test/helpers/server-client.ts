import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProducerServerEvent } from '../../src/server/server-events.js';
import { composition } from './temp-project.js';

/** 2 frames at 32x32: the smallest render that still goes through every stage. */
export function tinyComposition(color = '#e33'): string {
  return composition({
    width: 32,
    height: 32,
    duration: 0.2,
    fps: 10,
    body: `<div style="width:32px;height:32px;background:${color}"></div>`,
  });
}

/**
 * A composition whose second frame waits until `gate.txt` in its folder says "go": the test decides
 * when the render may proceed, so "running" and "queued" are states it can observe, not races.
 * It polls with fetch, paced by a worker (page timers are virtual and stand still during a seek).
 */
export function gatedComposition(): Record<string, string> {
  return {
    'gate.txt': 'wait',
    'index.html': composition({
      width: 32,
      height: 32,
      duration: 0.2,
      fps: 10,
      body: `<div style="width:32px;height:32px;background:#36f"></div>
<script>
  // A worker's timers are real (the runtime only virtualises the page's), so it paces the polling.
  const ticker = new Worker(URL.createObjectURL(new Blob(['setInterval(() => postMessage(0), 25)'], { type: 'text/javascript' })));
  const tick = () => new Promise((resolve) => ticker.addEventListener('message', resolve, { once: true }));
  window.__seekframe.onSeek(async (t) => {
    if (t === 0) return;
    for (;;) {
      try {
        if ((await (await fetch('gate.txt', { cache: 'no-store' })).text()).trim() === 'go') return;
      } catch {
        // A read that overlapped the test rewriting the file; ask again.
      }
      await tick();
    }
  });
</script>`,
    }),
  };
}

/** Atomic (temp + rename): the server never serves a half-rewritten gate with a stale length. */
export async function openGate(projectDir: string): Promise<void> {
  const temp = path.join(projectDir, '.gate.tmp');
  await writeFile(temp, 'go');
  await rename(temp, path.join(projectDir, 'gate.txt'));
}

export interface SseClient {
  readonly events: ProducerServerEvent[];
  readonly status: Promise<number>;
  /** Resolves with the first event (already received or future) that matches. */
  next(match: (event: ProducerServerEvent) => boolean): Promise<ProducerServerEvent>;
  /** Resolves when the server ends the stream, with every event received. */
  done: Promise<ProducerServerEvent[]>;
  /** Drops the connection, as a closed browser tab would. */
  disconnect(): void;
}

/** A real SSE client over fetch: parses `event:`/`data:` messages as they arrive. */
export function streamRender(baseUrl: string, body: unknown, headers: Record<string, string> = {}): SseClient {
  const controller = new AbortController();
  const events: ProducerServerEvent[] = [];
  let listeners: Array<() => void> = [];
  let resolveStatus!: (status: number) => void;
  const status = new Promise<number>((resolve) => {
    resolveStatus = resolve;
  });
  const notify = (): void => {
    for (const listener of listeners) listener();
  };
  const done = (async () => {
    try {
      const response = await fetch(`${baseUrl}/render/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      resolveStatus(response.status);
      if (!response.body) return events;
      const decoder = new TextDecoder();
      let buffer = '';
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const message = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = message
            .split('\n')
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          if (data) {
            events.push(JSON.parse(data) as ProducerServerEvent);
            notify();
          }
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    } finally {
      resolveStatus(0);
      notify();
    }
    return events;
  })();
  let finished = false;
  void done.finally(() => {
    finished = true;
    notify();
  });
  return {
    events,
    status,
    done,
    disconnect: () => controller.abort(),
    next(match) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = events.find(match);
          if (found) resolve(found);
          else if (finished) reject(new Error(`stream ended without the expected event; got ${JSON.stringify(events.map((e) => e.type))}`));
          return Boolean(found) || finished;
        };
        if (check()) return;
        const listener = (): void => {
          if (check()) listeners = listeners.filter((l) => l !== listener);
        };
        listeners.push(listener);
      });
    },
  };
}

export async function getJson<T = unknown>(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as T };
}

export async function postJson<T = unknown>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}
