import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';
import { createRenderApi } from './create-render-api.js';
import { createMemoryJobStore } from './memory-job-store.js';
import type { FileSource, ObjectInfo, ObjectStore, RenderRunner, RunnerContext, RunnerJob, RunnerOutcome } from './ports.js';
import type { RenderApiOptions } from './render-api-options.js';

/**
 * Unit tests of the API's own logic with a scripted runner and an in-memory object store (the
 * real runner and stores are exercised end to end by test/local-contract.test.ts).
 */

const COMPOSITION = `<html data-composition-id="unit" data-width="160" data-height="90" data-duration="1" data-fps="10"
  data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"a"}]'></html>`;

const composition: FileSource = { read: async (path) => (path === 'index.html' ? { body: COMPOSITION } : null) };

function memoryObjects(options: { url?: (key: string) => string | null } = {}): ObjectStore & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  const info = (key: string): ObjectInfo | null =>
    files.has(key) ? { key, size: files.get(key)!.length, contentType: 'video/mp4', uploadedAt: new Date().toISOString() } : null;
  return {
    files,
    async put(key, body) {
      files.set(
        key,
        typeof body === 'string'
          ? new TextEncoder().encode(body)
          : new Uint8Array(body instanceof ArrayBuffer ? body : await new Response(body as ReadableStream).arrayBuffer()),
      );
      return { created: true };
    },
    async get(key, range) {
      const data = files.get(key);
      if (!data) return null;
      const part = range ? data.subarray(range.start, (range.end ?? data.length - 1) + 1) : data;
      return { body: new Response(part as Uint8Array<ArrayBuffer>).body!, info: info(key)! };
    },
    head: async (key) => info(key),
    delete: async (key) => void files.delete(key),
    url: options.url ?? (() => null),
  };
}

/** A runner whose renders finish when the test says so. */
function scriptedRunner(objects: ObjectStore, options: { ignoreCancel?: boolean } = {}) {
  const started: { job: RunnerJob; context: RunnerContext; finish(outcome?: 'stored' | Error): void }[] = [];
  const cancelled: string[] = [];
  const runner: RenderRunner = {
    start(job, context) {
      return new Promise<RunnerOutcome>((resolve, reject) => {
        started.push({
          job,
          context,
          finish(outcome = 'stored') {
            if (outcome instanceof Error) return reject(outcome);
            void objects.put(job.outputKey, 'MP4DATA-0123456789').then(() => resolve({ kind: 'stored', durationMs: 42 }));
          },
        });
      });
    },
    async cancel(id) {
      cancelled.push(id);
      if (options.ignoreCancel) return;
      started.find((s) => s.job.id === id)?.finish(new SeekframeError('render-cancelled', 'cancelled'));
    },
  };
  return { runner, started, cancelled };
}

function setup(extra: Partial<RenderApiOptions> = {}, runnerOptions: { ignoreCancel?: boolean } = {}) {
  const objects = memoryObjects();
  const scripted = scriptedRunner(objects, runnerOptions);
  const jobs = createMemoryJobStore();
  let n = 0;
  const app = createRenderApi({
    runner: scripted.runner,
    jobs,
    objects,
    composition,
    answerMode: 'call-id',
    newId: () => `job-${++n}`,
    ...extra,
  });
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    app.request('/api/render', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  return { app, post, jobs, objects, ...scripted };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createRenderApi', () => {
  it('tells a lifecycle listener of each change the job store holds: started, progress, completed, failed, cancelled', async () => {
    const events: string[] = [];
    const { app, post, started } = setup({
      onEvent: (event) => {
        events.push(`${event.type}:${event.job.id}:${event.job.status}`);
        if (event.type === 'progress') throw new Error('a broken listener does not break the render');
      },
    });
    const { call_id: first } = await (await post({})).json();
    await settle();
    started[0]!.context.emit({ type: 'progress', stage: 'capture', framesRendered: 5, totalFrames: 10, percent: 50, fps: 10, eta: 1 });
    started[0]!.finish();
    const { call_id: second } = await (await post({})).json();
    await settle();
    started[1]!.finish(new SeekframeError('render-timeout', 'too slow', { stage: 'capture' }));
    const { call_id: third } = await (await post({})).json();
    await settle();
    await app.request(`/api/render/${third}`, { method: 'DELETE' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toEqual([
      `started:${first}:queued`,
      `progress:${first}:running`,
      `completed:${first}:completed`,
      `started:${second}:queued`,
      `failed:${second}:failed`,
      `started:${third}:queued`,
      `cancelled:${third}:cancelled`,
    ]);
    expect((await app.request(`/api/render/${first}`, { headers: { accept: 'application/json' } })).status).toBe(200);
  });

  it('two concurrent requests with one Idempotency-Key make one render', async () => {
    const { post, started } = setup();
    const [a, b] = await Promise.all([
      post({ variables: { title: 'x' } }, { 'idempotency-key': 'k' }),
      post({ variables: { title: 'x' } }, { 'idempotency-key': 'k' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await a.json()).call_id).toBe((await b.json()).call_id);
    await settle();
    expect(started).toHaveLength(1);
  });

  it('an Idempotency-Key retry may write the body with other key order or spacing (canonical JSON is hashed); another value is 409', async () => {
    const { app, started } = setup();
    const send = (text: string) => app.request('/api/render', { method: 'POST', body: text, headers: { 'idempotency-key': 'k2' } });
    expect((await send('{"quality":"draft","variables":{"title":"x"}}')).status).toBe(200);
    expect((await send('{ "variables": { "title": "x" }, "quality": "draft" }')).status).toBe(200);
    expect((await send('{"quality":"draft","variables":{"title":"y"}}')).status).toBe(409);
    await settle();
    expect(started).toHaveLength(1);
  });

  it('GET with Accept: application/json of a cancelled or failed render: the error under its status, plus the status and the webhook attempts', async () => {
    const sent: string[] = [];
    const { app, post, started } = setup({
      webhooks: {
        secret: 's',
        checkUrl: async () => undefined,
        send: async (delivery) => {
          sent.push(JSON.parse(delivery.body).type);
          return { status: 204 };
        },
        progressIntervalMs: 0,
      },
    });
    const body = { webhook: { url: 'https://hooks.example.test/x' } };
    const { call_id: failed } = await (await post(body)).json();
    const { call_id: cancelled } = await (await post(body)).json();
    await settle();
    started[0]!.finish(new SeekframeError('render-timeout', 'too slow', { stage: 'capture' }));
    await app.request(`/api/render/${cancelled}`, { method: 'DELETE' });
    const json = { headers: { accept: 'application/json' } };
    for (const [id, status, code] of [
      [failed, 504, 'render-timeout'],
      [cancelled, 409, 'render-cancelled'],
    ] as const) {
      let answer: Response;
      let attempts: { event: string; ok: boolean }[] = [];
      // Deliveries run beside the request: wait for the last event's attempt to be recorded.
      for (let i = 0; i < 200 && !attempts.some((a) => a.event === 'render.failed'); i++) {
        answer = await app.request(`/api/render/${id}`, json);
        attempts = (await answer.clone().json()).webhook?.attempts ?? [];
        if (!attempts.some((a) => a.event === 'render.failed')) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(answer!.status, id).toBe(status);
      const payload = await answer!.json();
      expect(payload, id).toMatchObject({ error: { code }, id, status: code === 'render-cancelled' ? 'cancelled' : 'failed' });
      expect(payload.webhook.url, id).toBe('https://hooks.example.test/x');
      expect(
        attempts.map((a) => `${a.event}:${a.ok}`),
        id,
      ).toEqual(['render.started:true', 'render.failed:true']);
      // Without Accept: application/json the answer stays the error alone.
      const plain = await (await app.request(`/api/render/${id}`)).json();
      expect(Object.keys(plain), id).toEqual(['error']);
    }
    expect(sent.filter((type) => type === 'render.failed')).toHaveLength(2);
  });

  it('a job cancelled while its runner finishes anyway stays cancelled', async () => {
    const { app, post, started, cancelled } = setup({}, { ignoreCancel: true });
    const { call_id: id } = await (await post({})).json();
    await settle();
    expect((await app.request(`/api/render/${id}`, { method: 'DELETE' })).status).toBe(202);
    expect(cancelled).toEqual([id]);
    expect(started[0]!.context.signal.aborted).toBe(true);
    // This runner ignores the cancel and stores a file anyway (a platform that could not stop it).
    started[0]!.finish();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await app.request(`/api/render/${id}`);
    expect(answer.status).toBe(409);
    expect((await answer.json()).error.code).toBe('render-cancelled');
  });

  it("the runner gets the output key, content type and the deployment limits; its failure is the job's error with its status", async () => {
    const { app, post, started } = setup({ limits: { maxFrames: 100, maxRenderSeconds: 60 } });
    const { call_id: id } = await (await post({ format: 'webm', variables: { title: 'q' } })).json();
    await settle();
    expect(started[0]!.job).toMatchObject({
      id,
      outputKey: `renders/${id}.webm`,
      contentType: 'video/webm',
      request: { format: 'webm', variables: { title: 'q' } },
      limits: { maxFrames: 100, maxRenderSeconds: 60 },
    });
    started[0]!.finish(new SeekframeError('render-timeout', 'too slow', { stage: 'capture' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await app.request(`/api/render/${id}`);
    expect(answer.status).toBe(504);
    expect((await answer.json()).error).toEqual({ code: 'render-timeout', message: 'too slow', stage: 'capture', retryable: false });
  });

  it('runner progress becomes the status answer; completion stores the result and serves the file with Range', async () => {
    const { app, post, started } = setup();
    const { call_id: id } = await (await post({})).json();
    await settle();
    started[0]!.context.emit({ type: 'stage', stage: 'capture' });
    started[0]!.context.emit({ type: 'progress', stage: 'capture', framesRendered: 4, totalFrames: 10, percent: 40, fps: 5, eta: 1 });
    await settle();
    const running = await app.request(`/api/render/${id}`);
    expect(running.status).toBe(202);
    expect(await running.json()).toEqual({ id, status: 'running', stage: 'capture', progress: 0.4, framesRendered: 4, totalFrames: 10 });
    started[0]!.finish();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const json = await app.request(`/api/render/${id}`, { headers: { accept: 'application/json' } });
    expect(await json.json()).toMatchObject({
      status: 'completed',
      progress: 1,
      framesRendered: 10,
      result: { key: `renders/${id}.mp4`, durationMs: 42, url: `/api/render/${id}` },
    });
    const part = await app.request(`/api/render/${id}`, { headers: { range: 'bytes=0-6' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('MP4DATA');
  });

  it('redirects to the store URL when the store has one', async () => {
    const objects = memoryObjects({ url: (key) => `https://blob.example/${key}` });
    const scripted = scriptedRunner(objects);
    const app = createRenderApi({
      runner: scripted.runner,
      jobs: createMemoryJobStore(),
      objects,
      composition,
      answerMode: 'call-id',
      newId: () => 'r1',
    });
    await app.request('/api/render', { method: 'POST', body: '{}' });
    await settle();
    scripted.started[0]!.finish();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await app.request('/api/render/r1');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('https://blob.example/renders/r1.mp4');
  });

  it('a runner refusing with too-many-renders answers 429 + Retry-After in sync mode', async () => {
    const runner: RenderRunner = {
      start: async () => {
        throw new SeekframeError('too-many-renders', 'full', { retryable: true });
      },
      cancel: async () => undefined,
    };
    const app = createRenderApi({ runner, jobs: createMemoryJobStore(), objects: memoryObjects(), composition, answerMode: 'sync' });
    const answer = await app.request('/api/render', { method: 'POST', body: '{}' });
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('10');
    expect((await answer.json()).error.code).toBe('too-many-renders');
  });

  it('a runner that says it stored the file but did not fails the job with output-missing', async () => {
    const runner: RenderRunner = { start: async () => ({ kind: 'stored' }), cancel: async () => undefined };
    const app = createRenderApi({ runner, jobs: createMemoryJobStore(), objects: memoryObjects(), composition, answerMode: 'sync' });
    const answer = await app.request('/api/render', { method: 'POST', body: '{}' });
    expect(answer.status).toBe(500);
    expect((await answer.json()).error).toMatchObject({ code: 'output-missing', retryable: true });
  });

  it('a detached runner is polled on each status request until it reports the end', async () => {
    const objects = memoryObjects();
    let polls = 0;
    const runner: RenderRunner = {
      start: async () => ({ kind: 'detached' }),
      cancel: async () => undefined,
      async poll(job) {
        polls++;
        if (polls === 1) return { stage: 'capture', framesRendered: 5, totalFrames: 10, progress: 0.5 };
        await objects.put(job.outputKey, 'DONE');
        return { status: 'completed', progress: 1, result: { url: `/api/render/${job.id}`, key: job.outputKey, durationMs: 7 } };
      },
    };
    const app = createRenderApi({ runner, jobs: createMemoryJobStore(), objects, composition, answerMode: 'call-id', newId: () => 'd1' });
    await app.request('/api/render', { method: 'POST', body: '{}' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const first = await app.request('/api/render/d1');
    expect(first.status).toBe(202);
    expect((await first.json()).framesRendered).toBe(5);
    const second = await app.request('/api/render/d1');
    expect(second.status).toBe(200);
    expect(await second.text()).toBe('DONE');
  });

  it("the job record keeps the body's hash, not its html; the runner still gets the html", async () => {
    const { post, jobs, started } = setup({ allowCustomHtml: true });
    const html = `<html data-composition-id="big" data-width="16" data-height="16" data-duration="1"><body>${'x'.repeat(200_000)}</body></html>`;
    const answer = await post({ html }, { 'idempotency-key': 'big-1' });
    const { call_id: id } = await answer.json();
    await settle();
    expect(started[0]!.job.request.html).toBe(html);
    const stored = (await jobs.get(id))!;
    expect(stored.request).toEqual({ variables: {}, format: 'mp4' });
    expect(JSON.stringify(stored).length).toBeLessThan(2000);
    expect(stored.bodyHash).toMatch(/^[0-9a-f]{64}$/);
    // The hash alone answers an idempotent retry and a conflicting one.
    expect((await (await post({ html }, { 'idempotency-key': 'big-1' })).json()).call_id).toBe(id);
    expect((await post({ html: html.replace('big', 'other') }, { 'idempotency-key': 'big-1' })).status).toBe(409);
  });

  it("a render that lands after its job expired is deleted at once; an expired job's file goes before the 410", async () => {
    let clock = Date.parse('2030-01-01T00:00:00Z');
    const { app, post, started, objects } = setup({ retentionSeconds: 60, now: () => new Date(clock) });
    const { call_id: late } = await (await post({})).json();
    const { call_id: kept } = await (await post({})).json();
    await settle();
    started[1]!.finish();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([...objects.files.keys()]).toEqual([`renders/${kept}.mp4`]);
    clock += 61_000;
    started[0]!.finish();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(objects.files.has(`renders/${late}.mp4`)).toBe(false);
    // Nobody asked for the other one yet: the first status request past retention deletes it.
    expect(objects.files.has(`renders/${kept}.mp4`)).toBe(true);
    expect((await app.request(`/api/render/${kept}`)).status).toBe(410);
    expect(objects.files.size).toBe(0);
  });

  it('a URL over 8 KiB is 414 url-too-long and headers over 12 KiB 431 headers-too-large, as JSON with a request id (where the runtime lets them through)', async () => {
    const { app } = setup();
    const long = await app.request(`/api/render/${'a'.repeat(9 * 1024)}`);
    expect(long.status).toBe(414);
    expect((await long.json()).error).toMatchObject({ code: 'url-too-long', retryable: false });
    expect(long.headers.get('x-request-id')).toBeTruthy();
    const heavy = await app.request('/api/composition', { headers: { 'x-big': 'b'.repeat(13 * 1024) } });
    expect(heavy.status).toBe(431);
    expect((await heavy.json()).error).toMatchObject({ code: 'headers-too-large', retryable: false });
    expect(heavy.headers.get('x-request-id')).toBeTruthy();
    expect((await app.request('/api/composition')).status).toBe(200);
  });

  it("answer mode async: 202 {id, statusUrl} at once without Prefer; a detached runner's own progress fields are answered and documented", async () => {
    const objects = memoryObjects({ url: (key) => `https://files.example/${key}` });
    const fields = z.object({ chunks: z.object({ done: z.number().int(), total: z.number().int() }) });
    let step = 0;
    const runner: RenderRunner = {
      progressFields: fields,
      start: async () => ({ kind: 'detached' }),
      async poll() {
        step++;
        if (step === 1)
          return { status: 'running', progress: 0.5, runnerProgress: { chunks: { done: 1, total: 2 } } satisfies z.input<typeof fields> };
        await objects.put('out/job-1.mp4', 'MP4');
        return {
          status: 'completed',
          progress: 1,
          runnerProgress: { chunks: { done: 2, total: 2 } },
          result: { url: 'https://files.example/out/job-1.mp4', key: 'out/job-1.mp4', durationMs: 5 },
        };
      },
      cancel: async () => undefined,
    };
    const app = createRenderApi({
      runner,
      jobs: createMemoryJobStore(),
      objects,
      composition,
      answerMode: 'async',
      newId: (input) => `job-${input.request.variables.title}`,
      outputKey: (id) => `out/${id}.mp4`,
    });
    const started = await app.request('/api/render', {
      method: 'POST',
      body: JSON.stringify({ variables: { title: '1' } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(started.status).toBe(202);
    expect(await started.json()).toEqual({ id: 'job-1', statusUrl: '/api/render/job-1' });
    expect(started.headers.get('location')).toBe('/api/render/job-1');
    expect(started.headers.get('preference-applied')).toBeNull();
    await settle();
    const running = await app.request('/api/render/job-1');
    expect(running.status).toBe(202);
    expect(await running.json()).toMatchObject({ id: 'job-1', status: 'running', progress: 0.5, chunks: { done: 1, total: 2 } });
    const done = await app.request('/api/render/job-1');
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('https://files.example/out/job-1.mp4');
    const json = await app.request('/api/render/job-1', { headers: { accept: 'application/json' } });
    expect(await json.json()).toMatchObject({ status: 'completed', chunks: { done: 2, total: 2 }, result: { key: 'out/job-1.mp4' } });

    const document = (await (await app.request('/api/openapi.json')).json()) as any;
    expect(Object.keys(document.paths['/api/render'].post.responses)).not.toContain('200');
    expect(document.components.schemas.JobProgress.properties.chunks).toBeDefined();
    expect(document.components.schemas.CompletedJob.properties).toHaveProperty('chunks');
  });

  it('limits.maxVariablesBytes refuses larger variables with 413 variables-too-large before a job exists', async () => {
    const { post, started } = setup({ limits: { maxVariablesBytes: 64 } });
    const answer = await post({ variables: { title: 'x'.repeat(100) } });
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { error: { code: string; details: { limit: number } } }).error).toMatchObject({
      code: 'variables-too-large',
      details: { limit: 64 },
    });
    expect(started).toHaveLength(0);
    expect((await post({ variables: { title: 'short' } })).status).toBe(200);
  });
});

describe('createRenderApi: settings from the process environment by default (fail closed)', () => {
  /** Runs `body` with `vars` set in process.env, restoring it after. */
  async function withEnv(vars: Record<string, string>, body: () => Promise<void> | void): Promise<void> {
    const before = Object.fromEntries(Object.keys(vars).map((name) => [name, process.env[name]]));
    Object.assign(process.env, vars);
    try {
      await body();
    } finally {
      for (const [name, value] of Object.entries(before)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }

  it('RENDER_API_TOKEN only in the process environment (not passed in code): 401 without it, 200 with it', async () => {
    await withEnv({ RENDER_API_TOKEN: 'env-only-token-7f' }, async () => {
      const { app } = setup();
      const without = await app.request('/api/composition');
      expect(without.status).toBe(401);
      expect((await without.json()).error.code).toBe('unauthorized');
      expect((await app.request('/api/composition', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      expect((await app.request('/api/composition', { headers: { authorization: 'Bearer env-only-token-7f' } })).status).toBe(200);
    });
  });

  it('a variable set but unusable refuses to build the API, naming it (blank token, malformed limit)', async () => {
    for (const [name, value] of [
      ['RENDER_API_TOKEN', '  '],
      ['RENDER_API_TOKEN', ''],
      ['RENDER_MAX_FRAMES', 'lots'],
      ['ALLOW_CUSTOM_HTML', 'yes'],
    ] as const) {
      await withEnv({ [name]: value }, () => {
        expect(() => setup(), `${name}=${JSON.stringify(value)}`).toThrowError(
          expect.objectContaining({ code: 'invalid-server-options', details: { variable: name } }),
        );
      });
    }
  });

  it('options given win over the environment field by field; env: {} reads nothing', async () => {
    await withEnv({ RENDER_API_TOKEN: 'env-token', RENDER_MAX_FRAMES: '5' }, async () => {
      const given = setup({ token: 'code-token' }).app;
      expect((await given.request('/api/composition', { headers: { authorization: 'Bearer env-token' } })).status).toBe(401);
      expect((await given.request('/api/composition', { headers: { authorization: 'Bearer code-token' } })).status).toBe(200);
      // RENDER_MAX_FRAMES=5 still applies: the composition's 10 frames are over it.
      const limited = await setup({ token: 'code-token' }).post({}, { authorization: 'Bearer code-token' });
      expect((await limited.json()).error.code).toBe('limit-exceeded');
      expect((await setup({ env: {} }).app.request('/api/composition')).status).toBe(200);
    });
  });

  it('RENDER_WEBHOOK_SECRET in the environment: used with the webhooks given; without any, the build is refused (never ignored)', async () => {
    await withEnv({ RENDER_WEBHOOK_SECRET: 'env-secret' }, async () => {
      expect(() => setup()).toThrowError(
        expect.objectContaining({ code: 'invalid-server-options', details: { variable: 'RENDER_WEBHOOK_SECRET' } }),
      );
      const { post } = setup({ webhooks: { checkUrl: async () => undefined, send: async () => ({ status: 204 }) } });
      const answer = await post({ webhook: { url: 'https://hooks.example.test/x' } });
      expect(answer.status).toBe(200);
    });
  });
});
