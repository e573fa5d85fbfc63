import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerServer, resolveServerConfig, type ProducerServer } from '../src/index.js';
import { probe } from './helpers/media-tools.js';
import { gatedComposition, getJson, openGate, streamRender, tinyComposition } from './helpers/server-client.js';
import { tempProject } from './helpers/temp-project.js';

/** The job service under the HTTP server: polling, cancelling by id, a bounded line, retention. */
let project: Awaited<ReturnType<typeof tempProject>>;
let server: ProducerServer;
let forgetful: ProducerServer;

beforeAll(async () => {
  project = await tempProject({ 'tiny/index.html': tinyComposition(), ...prefixed('gated', gatedComposition()) });
  server = await createProducerServer({ port: 0, root: project.dir, maxConcurrentRenders: 1, maxQueuedRenders: 1, env: {} });
  forgetful = await createProducerServer({ port: 0, root: project.dir, maxConcurrentRenders: 1, jobRetentionSeconds: 0, env: {} });
});
afterAll(async () => {
  await server?.close();
  await forgetful?.close();
  await project?.cleanup();
});

function prefixed(folder: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([name, text]) => [`${folder}/${name}`, text]));
}

interface JobView {
  requestId: string;
  status: string;
  stage: string | null;
  position: number;
  framesRendered: number;
  totalFrames: number | null;
  result?: { outputUrl: string; size: number };
  error?: { code: string };
  reason?: string;
}

async function submitAsync(
  base: string,
  body: unknown,
): Promise<{
  status: number;
  location: string | null;
  body: { requestId: string; statusUrl: string; status: string; error?: { code: string } };
  retryAfter: string | null;
}> {
  const response = await fetch(`${base}/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as never,
  };
}

/** Polls `GET url` until `done` holds for the answer (the render runs at its own pace on a shared machine). */
async function pollUntil(
  url: string,
  done: (answer: { status: number; body: JobView }) => boolean,
): Promise<{ status: number; body: JobView }> {
  for (;;) {
    const answer = await getJson<JobView>(url);
    if (done(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('producer server jobs', () => {
  it('Prefer: respond-async answers 202 + Location; GET /render/:id shows running, queued (position) and completed; a full line is 429; DELETE cancels a waiting job', async () => {
    const first = await submitAsync(server.url, { projectDir: 'gated', workers: 1 });
    expect(first.status).toBe(202);
    expect(first.body.statusUrl).toBe(`/render/${first.body.requestId}`);
    expect(first.location).toBe(first.body.statusUrl);
    const running = await pollUntil(`${server.url}${first.body.statusUrl}`, (a) => a.body.framesRendered >= 1);
    expect(running.status).toBe(200);
    expect(running.body).toMatchObject({
      requestId: first.body.requestId,
      status: 'running',
      stage: 'capture',
      totalFrames: 2,
      position: 0,
    });

    const second = await submitAsync(server.url, { projectDir: 'tiny', workers: 1 });
    expect(second.status).toBe(202);
    expect((await getJson<JobView>(`${server.url}${second.body.statusUrl}`)).body).toMatchObject({
      status: 'queued',
      position: 1,
      stage: null,
    });

    // One running and one waiting with maxQueuedRenders 1: the next is refused, by either route, before a stream opens.
    const third = await submitAsync(server.url, { projectDir: 'tiny', workers: 1 });
    expect(third.status).toBe(429);
    expect(third.body.error?.code).toBe('too-many-renders');
    expect(Number(third.retryAfter)).toBeGreaterThan(0);
    const stream = await fetch(`${server.url}/render/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectDir: 'tiny' }),
    });
    expect(stream.status).toBe(429);
    expect(stream.headers.get('content-type')).toMatch(/json/);
    expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('too-many-renders');

    const cancelled = await fetch(`${server.url}${second.body.statusUrl}`, { method: 'DELETE' });
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toMatchObject({ requestId: second.body.requestId, status: 'cancelled' });
    expect(server.status()).toEqual({ maxConcurrentRenders: 1, activeRenders: 1, queuedRenders: 0 });

    await openGate(path.join(project.dir, 'gated'));
    const completed = await pollUntil(`${server.url}${first.body.statusUrl}`, (a) => a.body.status !== 'running');
    expect(completed.body).toMatchObject({
      status: 'completed',
      framesRendered: 2,
      result: { outputUrl: expect.stringMatching(/^\/outputs\/[\w-]{32}$/) },
    });
    const file = path.join(project.dir, 'polled.mp4');
    await writeFile(file, Buffer.from(await (await fetch(`${server.url}${completed.body.result!.outputUrl}`)).arrayBuffer()));
    expect((await probe(file)).streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '2' });

    const again = await fetch(`${server.url}${first.body.statusUrl}`, { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('render-not-running');
  });

  it('the stream and the polling route name the same job', async () => {
    const events = await streamRender(server.url, { projectDir: 'tiny', workers: 1 }).done;
    const complete = events.find((e) => e.type === 'complete') as { requestId: string; outputUrl: string };
    expect(complete).toBeDefined();
    const polled = await getJson<JobView>(`${server.url}/render/${complete.requestId}`);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ status: 'completed', result: { outputUrl: complete.outputUrl } });
  });

  it('an ended job is forgotten after jobRetentionSeconds: 410 render-expired, while an id that never existed is 404', async () => {
    const job = await submitAsync(forgetful.url, { projectDir: 'tiny', workers: 1 });
    expect(job.status).toBe(202);
    const gone = await pollUntil(`${forgetful.url}${job.body.statusUrl}`, (a) => a.status !== 200);
    expect(gone.status).toBe(410);
    expect((gone.body as unknown as { error: { code: string } }).error.code).toBe('render-expired');
    const unknown = await getJson<{ error: { code: string } }>(`${forgetful.url}/render/00000000-0000-4000-8000-000000000000`);
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'render-not-found' } } });
    expect((await fetch(`${forgetful.url}${job.body.statusUrl}`, { method: 'DELETE' })).status).toBe(410);
  });

  it('queue bound and retention come from options or PRODUCER_* variables, named when wrong', () => {
    expect(resolveServerConfig({ env: {} })).toMatchObject({ maxQueuedRenders: 100, jobRetentionSeconds: 3600 });
    expect(resolveServerConfig({ env: { PRODUCER_MAX_QUEUED_RENDERS: '5', PRODUCER_JOB_RETENTION_SECONDS: '60' } })).toMatchObject({
      maxQueuedRenders: 5,
      jobRetentionSeconds: 60,
    });
    expect(() => resolveServerConfig({ env: { PRODUCER_JOB_RETENTION_SECONDS: 'soon' } })).toThrow(
      /PRODUCER_JOB_RETENTION_SECONDS must be a whole number/,
    );
    expect(() =>
      resolveServerConfig({ maxQueuedRenders: 20_000, env: {} }, (field) =>
        field === 'maxQueuedRenders' ? '--max-queued-renders' : field,
      ),
    ).toThrow(/--max-queued-renders must be 0-10000/);
  });
});
