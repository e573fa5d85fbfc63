import { writeFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContainerEvent } from '@seekframe/cloudflare-container/protocol';
import { probeVideo, startRenderServer } from './helpers/start-render-server.js';

/** The render container's own HTTP server, driven over real HTTP with real Chromium and ffmpeg. */

function lines(text: string): ContainerEvent[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as ContainerEvent);
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe('render container server', () => {
  it('renders a job, streams progress as NDJSON and serves the file with Content-Length', async () => {
    const server = await startRenderServer();
    stop = server.close;
    expect((await fetch(`${server.url}/jobs/job-1`, { method: 'PUT' })).status).toBe(201);

    const render = await fetch(`${server.url}/jobs/job-1/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variables: { color: '#ff0000', title: 'Yo' } }),
    });
    expect(render.status).toBe(200);
    expect(render.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const events = lines(await render.text());
    const last = events.at(-1);
    expect(last?.type, JSON.stringify(last)).toBe('complete');
    expect(events.some((e) => e.type === 'progress')).toBe(true);
    if (last?.type !== 'complete') throw new Error('unreachable');
    expect(last.frames).toBe(10);
    expect(last.contentType).toBe('video/mp4');

    const output = await fetch(`${server.url}/jobs/job-1/output`);
    expect(output.status).toBe(200);
    // R2's put needs a known length: the container must say how long the body is.
    expect(output.headers.get('content-length')).toBe(String(last.size));
    const bytes = new Uint8Array(await output.arrayBuffer());
    expect(bytes.byteLength).toBe(last.size);
    const file = join(server.workDir, 'downloaded.mp4');
    await writeFile(file, bytes);
    expect(await probeVideo(file)).toMatchObject({ codec: 'h264', width: 160, height: 90, frames: 10 });

    // DELETE frees the slot and the file.
    expect((await fetch(`${server.url}/jobs/job-1`, { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(`${server.url}/jobs/job-1/output`)).status).toBe(404);
    expect((await readdir(server.workDir)).filter((name) => name.startsWith('job-1'))).toEqual([]);
  });

  it('a still is the frame as a PNG (image/png, one frame); frames renders only that span', async () => {
    const server = await startRenderServer();
    stop = server.close;
    const run = async (id: string, body: unknown) => {
      expect((await fetch(`${server.url}/jobs/${id}`, { method: 'PUT' })).status).toBe(201);
      const render = await fetch(`${server.url}/jobs/${id}/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const last = lines(await render.text()).at(-1);
      expect(last?.type, JSON.stringify(last)).toBe('complete');
      if (last?.type !== 'complete') throw new Error('unreachable');
      const output = await fetch(`${server.url}/jobs/${id}/output`);
      const bytes = new Uint8Array(await output.arrayBuffer());
      // One job at a time per renderer: free the slot for the next.
      expect((await fetch(`${server.url}/jobs/${id}`, { method: 'DELETE' })).status).toBe(200);
      return { last, bytes, type: output.headers.get('content-type') };
    };
    const still = await run('job-still', { variables: { color: '#ff0000', title: 'Yo' }, still: { frame: 3 } });
    expect(still.last).toMatchObject({ frames: 1, contentType: 'image/png' });
    expect(still.type).toBe('image/png');
    const png = join(server.workDir, 'still.png');
    await writeFile(png, still.bytes);
    expect(await probeVideo(png)).toMatchObject({ codec: 'png', width: 160, height: 90, frames: 1 });
    const span = await run('job-span', { variables: { color: '#ff0000', title: 'Yo' }, frames: { start: 2, end: 5 } });
    expect(span.last).toMatchObject({ frames: 4, contentType: 'video/mp4' });
  });

  it('answers 429 too-many-renders while its slots are reserved, and takes the next job once one is freed', async () => {
    const server = await startRenderServer({ maxConcurrent: 1 });
    stop = server.close;
    expect((await fetch(`${server.url}/jobs/a`, { method: 'PUT' })).status).toBe(201);
    const busy = await fetch(`${server.url}/jobs/b`, { method: 'PUT' });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(await busy.json()).toMatchObject({ error: { code: 'too-many-renders', retryable: true } });
    // The same job reserving again is not a second slot.
    expect((await fetch(`${server.url}/jobs/a`, { method: 'PUT' })).status).toBe(201);
    await fetch(`${server.url}/jobs/a`, { method: 'DELETE' });
    expect((await fetch(`${server.url}/jobs/b`, { method: 'PUT' })).status).toBe(201);
  });

  it('ends the stream with the render error (strict variables) and refuses a body with unknown fields', async () => {
    const server = await startRenderServer();
    stop = server.close;
    const bad = await fetch(`${server.url}/jobs/x/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectDir: '/etc' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid-body' } });
    await fetch(`${server.url}/jobs/x`, { method: 'DELETE' });
    // Job ids become file names on the renderer: only [A-Za-z0-9_-].
    for (const path of ['/jobs/a.b', '/jobs/a%2F..%2Fb/render']) {
      const refused = await fetch(`${server.url}${path}`, { method: path.endsWith('render') ? 'POST' : 'PUT', body: '{}' });
      expect(refused.status, path).toBe(400);
    }

    const render = await fetch(`${server.url}/jobs/y/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variables: { nope: 1 } }),
    });
    const last = lines(await render.text()).at(-1);
    expect(last).toMatchObject({ type: 'error', error: { code: 'invalid-variables' } });
  });

  it("applies the job's limits under its own: a render over the job's frame limit ends with limit-exceeded", async () => {
    const server = await startRenderServer();
    stop = server.close;
    const render = await fetch(`${server.url}/jobs/limited/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limits: { maxFrames: 5 } }),
    });
    expect(lines(await render.text()).at(-1)).toMatchObject({ type: 'error', error: { code: 'limit-exceeded' } });
  });

  it('stops the render when the caller hangs up, so a cancelled job frees its instance', async () => {
    const server = await startRenderServer();
    stop = server.close;
    const abort = new AbortController();
    const render = await fetch(`${server.url}/jobs/gone/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fps: 60, html: slowHtml() }),
      signal: abort.signal,
    });
    const reader = render.body!.getReader();
    await reader.read(); // the render has started (first event)
    abort.abort();
    // The render notices the hang-up and stops: no output, and no video file left in the work folder.
    await expect
      .poll(async () => (await (await fetch(`${server.url}/jobs/gone`)).json()) as { running: boolean }, { timeout: 30_000, interval: 200 })
      .toMatchObject({ running: false, output: null });
    expect((await readdir(server.workDir)).filter((name) => name.includes('.mp4'))).toEqual([]);
  });
});

/** A custom-HTML composition long enough (6 s at 60 fps) that a hang-up arrives mid-render. */
function slowHtml(): string {
  return `<!doctype html><html data-composition-id="slow" data-width="160" data-height="90" data-duration="6"><body style="margin:0;background:#123"><div class="clip" data-start="0" data-duration="6">x</div></body></html>`;
}
