import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { SeekframeError, storedRenderName } from '@seekframe/composition';
import { apiError, asApiError, errorBody, statusOf } from './api-error.js';
import { checkRenderRequest } from './check-render-request.js';
import { constantTimeEqual } from './constant-time-equal.js';
import { expireRenders } from './expire-renders.js';
import { compositionInfo, compositionLoader } from './load-composition.js';
import { mountPreview } from './preview-routes.js';
import { DEFAULT_LIMITS, type RenderApiOptions } from './render-api-options.js';
import { isFinished, type JobProgress, type RenderJob, type RenderJobRequest } from './render-job.js';
import { runJob } from './run-job.js';
import { jobWebhookListener, notifyJobChange, type JobWebhookListener } from './job-webhooks.js';
import { serveObject } from './serve-object.js';
import { OPENAPI_PATH, renderApiDocument } from './openapi-document.js';
import type { RenderAccepted, RenderCallId, RenderCancelled, RenderFinished } from './render-answers.js';

const CONTENT_TYPES: Record<RenderJobRequest['format'], string> = { mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', gif: 'image/gif' };
/** Seconds a client waits between status polls, and before retrying at capacity. */
const POLL_SECONDS = 2;
const CAPACITY_RETRY_SECONDS = 10;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Longest path + query, and most header bytes, a request may have (414 / 431 beyond). Node's own
 *  parser refuses past 16 KiB before this app runs (answerClientErrors answers those as JSON);
 *  Workers, Next and the Python app pass larger requests through, up to their platform's limits. */
const MAX_URL_BYTES = 8 * 1024;
const MAX_HEADER_BYTES = 12 * 1024;

type Env = { Variables: { requestId: string } };

/**
 * The render API every template mounts (Hono; web-standard Request/Response only, so it runs in
 * Node, in a Worker and in a Next route). Routes: `GET /` (preview), `GET /api/composition`,
 * `POST /api/render`, `GET|DELETE /api/render/:id`, and `GET /renders/:name` in call-id mode.
 */
export function createRenderApi(options: RenderApiOptions): Hono<Env> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const maxConcurrent = options.maxConcurrentRenders ?? 2;
  const retentionMs = (options.retentionSeconds ?? 24 * 3600) * 1000;
  const syncTimeoutMs = options.syncTimeoutMs ?? 840_000;
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? (() => crypto.randomUUID());
  const serveRenders = options.serveRendersRoute ?? options.answerMode === 'call-id';
  const loadComposition = compositionLoader(options.composition);
  const { jobs, objects, runner } = options;
  /** Renders started by this instance: their abort switches and completion promises. */
  const local = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Webhook listeners of jobs this instance started or polled, until their final event. */
  const listeners = new Map<string, JobWebhookListener>();
  /** When this instance last swept the store for renders past retention (see sweepExpired). */
  let lastSweep = Number.NEGATIVE_INFINITY;

  const app = new Hono<Env>();

  app.use('*', async (c, next) => {
    const given = c.req.header('x-request-id');
    const requestId = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    c.set('requestId', requestId);
    checkRequestSize(c.req.raw);
    await next();
    c.res.headers.set('x-request-id', requestId);
  });

  app.onError((error, c) => {
    const failure = asApiError(error);
    const response = c.json(errorBody(failure), statusOf(failure.code) as 400);
    if (failure.code === 'too-many-renders') response.headers.set('retry-after', String(CAPACITY_RETRY_SECONDS));
    // The rest of an oversized body is never read: the connection cannot carry another request.
    if (failure.code === 'body-too-large') response.headers.set('connection', 'close');
    // Set here too: a refusal before the route (an oversized request) skips the middleware's own.
    response.headers.set('x-request-id', c.get('requestId') ?? crypto.randomUUID());
    return response;
  });
  app.notFound(() => {
    throw apiError('not-found', `No such route; the render API serves GET /, GET /api/composition, POST /api/render and GET/DELETE /api/render/:id (all described at GET ${OPENAPI_PATH}).`);
  });

  mountPreview(app, options);

  // Before the token check, so it needs none: the document describes the API and holds no data.
  // Made on the first request, once per app (a few ms of schema conversion).
  let document: ReturnType<typeof renderApiDocument> | undefined;
  app.get(OPENAPI_PATH, (c) => c.json((document ??= renderApiDocument({ answerMode: options.answerMode, serveRenders }))));

  // Every API route needs the token when one is set; the preview page and its assets do not.
  const requireToken = async (c: Context<Env>, next: () => Promise<void>): Promise<void> => {
    if (options.token) {
      const header = c.req.header('authorization') ?? '';
      const match = /^Bearer\s+(.+)$/i.exec(header);
      if (!match || !(await constantTimeEqual(match[1]!.trim(), options.token))) {
        throw apiError('unauthorized', 'This render API needs a token: send the header "Authorization: Bearer <RENDER_API_TOKEN>".');
      }
    }
    await next();
  };
  app.use('/api/*', requireToken);
  if (serveRenders) app.use('/renders/*', requireToken);

  app.get('/api/composition', async (c) => c.json(compositionInfo(await loadComposition())));

  app.post(
    '/api/render',
    bodyLimit({
      maxSize: limits.maxBodyBytes,
      onError: () => {
        throw apiError('body-too-large', `The request body is larger than this deployment's limit of ${limits.maxBodyBytes} bytes; send fewer or shorter variables.`, { details: { limit: limits.maxBodyBytes } });
      },
    }),
    async (c) => {
      const { request, totalFrames, bodyHash } = await checkRenderRequest(await c.req.text(), { composition: loadComposition, allowCustomHtml: options.allowCustomHtml ?? false, limits, webhooks: options.webhooks });

      const idempotencyKey = c.req.header('idempotency-key')?.trim() || undefined;
      if (idempotencyKey !== undefined && idempotencyKey.length > 255) {
        throw apiError('invalid-body', 'Idempotency-Key is longer than 255 characters; use a UUID.');
      }
      if (idempotencyKey) {
        // Answered before the capacity check: a retry of an accepted request is not a new render.
        const existing = await findIdempotent(idempotencyKey);
        if (existing) return answerExisting(c, existing, bodyHash);
      }

      if (jobs.countActive && (await jobs.countActive()) >= maxConcurrent) {
        throw apiError('too-many-renders', `This deployment is rendering ${maxConcurrent} video(s) already; try again in ${CAPACITY_RETRY_SECONDS} s.`, { retryable: true, details: { maxConcurrentRenders: maxConcurrent } });
      }

      const id = newId();
      const created = now();
      const job: RenderJob = {
        id,
        status: 'queued',
        stage: null,
        progress: 0,
        framesRendered: 0,
        totalFrames,
        // Not the html: the runner gets it from `request` below, and a job record kept for the
        // retention period holds only what answers a status or an idempotent retry (bodyHash).
        request: withoutHtml(request),
        outputKey: `renders/${id}.${request.format}`,
        createdAt: created.toISOString(),
        updatedAt: created.toISOString(),
        expiresAt: new Date(created.getTime() + retentionMs).toISOString(),
        ...(idempotencyKey ? { idempotencyKey, bodyHash } : {}),
      };
      const stored = await jobs.create(job);
      if (!stored.created) return answerExisting(c, stored.job, bodyHash);

      const done = start(job, request, new URL(c.req.url).origin);
      sweepExpired();
      return answerNew(c, job, done, { ownsJob: true });
    },
  );

  app.get('/api/render/:id', async (c) => {
    const job = await freshJob(c.req.param('id'), new URL(c.req.url).origin);
    if (job.status === 'queued' || job.status === 'running') {
      c.header('retry-after', String(POLL_SECONDS));
      c.header('cache-control', 'no-store');
      return c.json(progressOf(job), 202);
    }
    if (job.status === 'failed') throw SeekframeError.fromJSON(job.error ?? { code: 'render-failed', message: 'The render failed.', retryable: true });
    if (job.status === 'cancelled') throw apiError('render-cancelled', `Render ${job.id} was cancelled; start a new one with POST /api/render.`, { stage: 'capture' });
    if (wantsJson(c)) return c.json({ ...progressOf(job), result: job.result });
    const url = await objects.url(job.outputKey);
    if (url) return c.redirect(url, 302);
    return serveObject(objects, job.outputKey, c.req.raw, { downloadName: `${job.id}.${job.request.format}` });
  });

  app.delete('/api/render/:id', async (c) => {
    const job = await freshJob(c.req.param('id'));
    if (isFinished(job.status)) {
      throw apiError('render-not-running', `Render ${job.id} is already ${job.status}; only a queued or running render can be cancelled.`, { details: { status: job.status } });
    }
    await cancelJob(job.id, `Render ${job.id} was cancelled by a DELETE request.`);
    return c.json({ id: job.id, status: 'cancelled' } satisfies RenderCancelled, 202);
  });

  if (serveRenders) {
    app.on(['GET', 'HEAD'], '/renders/:name', async (c) => {
      const name = c.req.param('name');
      if (storedRenderName(`renders/${name}`) !== name) throw apiError('not-found', `No stored render named ${name}.`);
      if (!(await objects.head(`renders/${name}`))) throw apiError('not-found', `No stored render named ${name}; it may have expired.`);
      return serveObject(objects, `renders/${name}`, c.req.raw, { downloadName: name });
    });
  }

  // -------------------------------------------------------------------------------------------

  function start(job: RenderJob, request: RenderJobRequest, baseUrl: string): Promise<void> {
    const controller = new AbortController();
    const listener = webhookListener(job, baseUrl);
    const done = runJob(
      { jobs, objects, runner, now: () => now().getTime(), listener },
      job,
      {
        id: job.id,
        request,
        outputKey: job.outputKey,
        contentType: CONTENT_TYPES[job.request.format],
        limits: { maxFrames: limits.maxFrames, maxRenderSeconds: limits.maxRenderSeconds, maxPixels: limits.maxPixels, ...(limits.maxMemoryMB === undefined ? {} : { maxMemoryMB: limits.maxMemoryMB }) },
        origin: baseUrl,
      },
      controller.signal,
    )
      // A render that finished after its job expired (a short retention) is deleted at once.
      .then(() => (now().getTime() >= Date.parse(job.expiresAt) ? dropOutput(job) : undefined))
      .finally(() => local.delete(job.id));
    local.set(job.id, { controller, done });
    options.waitUntil?.(done);
    // Deliveries outlive the answer (and the render): the platform keeps them running until they end.
    if (listener) {
      const delivered = done.then(() => followDetached(job, baseUrl)).then(() => settleWebhook(job.id, listener));
      options.waitUntil?.(delivered);
    }
    return done;
  }

  /**
   * A detached render (the Vercel sandbox) is otherwise learnt of only when a client asks for its
   * status; a webhook exists so that nobody has to ask. So the API asks the runner itself, while
   * this instance may run (`waitUntil` / Next's `after()`: up to the function's maxDuration; a
   * longer render is followed on from the next status request), until the job ends or could no
   * longer be running (its time limit and a minute of grace).
   */
  async function followDetached(job: RenderJob, baseUrl: string): Promise<void> {
    if (!runner.poll) return;
    const every = options.webhooks?.followIntervalMs ?? POLL_SECONDS * 1000;
    const giveUpAt = Date.parse(job.createdAt) + limits.maxRenderSeconds * 1000 + 60_000;
    while (now().getTime() < giveUpAt) {
      const current = await freshJob(job.id, baseUrl).catch(() => null);
      if (!current || isFinished(current.status)) return;
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  }

  /** The job's webhook listener (one per job and instance; job-webhooks.ts), or null without a webhook. */
  function webhookListener(job: RenderJob, baseUrl: string): JobWebhookListener | null {
    const existing = listeners.get(job.id);
    if (existing) return existing;
    const listener = jobWebhookListener(job, jobs, options.webhooks, { now: () => now().getTime(), baseUrl });
    if (!listener) return null;
    listeners.set(job.id, listener);
    return listener;
  }

  /** Waits for the job's deliveries; forgets its listener once the job is finished. */
  function settleWebhook(id: string, listener: JobWebhookListener): Promise<void> {
    const settled = listener.settled().then(async () => {
      const current = await jobs.get(id).catch(() => null);
      if (!current || isFinished(current.status)) listeners.delete(id);
    });
    options.waitUntil?.(settled);
    return settled;
  }

  /** Marks the job cancelled (it stays so whatever the runner reports next) and stops its render. */
  async function cancelJob(id: string, message: string): Promise<void> {
    const cancelled = await jobs.update(id, { status: 'cancelled', error: { code: 'render-cancelled', message, stage: 'capture', retryable: false } });
    // A cancelled render's webhook hears render.failed with code render-cancelled: its last event.
    const listener = cancelled ? (listeners.get(id) ?? webhookListener(cancelled, 'http://localhost')) : null;
    if (listener && cancelled?.error) {
      listener.failed(cancelled.error);
      void settleWebhook(id, listener);
    }
    local.get(id)?.controller.abort();
    await runner.cancel(id);
  }

  /**
   * The client of a synchronous answer never learnt the job's id, so when it goes away nobody
   * could cancel the render: it is cancelled here, its slot freed, as the producer server does.
   * `request.signal` aborts when the client disconnects (@hono/node-server; Workers with the
   * `enable_request_signal` flag; Next route handlers). Returns the function that stops watching.
   */
  function cancelOnDisconnect(signal: AbortSignal, id: string): () => void {
    const onAbort = (): void => {
      void (async () => {
        const job = await jobs.get(id);
        if (job && !isFinished(job.status)) await cancelJob(id, `Render ${id} was cancelled: the client of the synchronous POST /api/render disconnected before it finished.`);
      })().catch(() => undefined);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  }

  /** Deletes a job's file (past retention); a failure is left to the next sweep. */
  async function dropOutput(job: RenderJob): Promise<void> {
    await objects.delete(job.outputKey).catch(() => undefined);
  }

  /**
   * Renders past retention are deleted from stores with no lifecycle rule of their own (a local
   * folder, Vercel Blob: `objects.list`): swept on new renders, at most once per retention period
   * or minute per instance, in the background (`waitUntil` where the platform needs it). The
   * first status request after expiry deletes that job's file too (freshJob).
   */
  function sweepExpired(): void {
    const at = now().getTime();
    if (!objects.list || at - lastSweep < Math.min(retentionMs, 60_000)) return;
    lastSweep = at;
    const sweeping = expireRenders(objects, retentionMs, at).catch(() => []);
    options.waitUntil?.(sweeping);
  }

  async function findIdempotent(key: string): Promise<RenderJob | null> {
    // The store also resolves keys atomically in create(); this read answers a plain retry
    // before the capacity check, so a retry of an accepted request never gets 429.
    return jobs.findByIdempotencyKey(key);
  }

  async function answerExisting(c: Context<Env>, job: RenderJob, bodyHash: string): Promise<Response> {
    if (job.bodyHash !== bodyHash) {
      throw apiError('idempotency-conflict', `Idempotency-Key "${job.idempotencyKey}" was already used with a different body (render ${job.id}); use a new key for a different render.`, { details: { id: job.id } });
    }
    const running = local.get(job.id)?.done;
    // Another client's render: this one leaving must not cancel it.
    return answerNew(c, job, running ?? Promise.resolve(), { ownsJob: false });
  }

  async function answerNew(c: Context<Env>, job: RenderJob, done: Promise<void>, { ownsJob }: { ownsJob: boolean }): Promise<Response> {
    const statusUrl = `/api/render/${encodeURIComponent(job.id)}`;
    if (/\brespond-async\b/i.test(c.req.header('prefer') ?? '')) {
      c.header('location', statusUrl);
      c.header('preference-applied', 'respond-async');
      return c.json({ id: job.id, statusUrl } satisfies RenderAccepted, 202);
    }
    if (options.answerMode === 'call-id') {
      c.header('location', statusUrl);
      return c.json({ call_id: job.id } satisfies RenderCallId);
    }
    const stopWatching = ownsJob ? cancelOnDisconnect(c.req.raw.signal, job.id) : () => undefined;
    const finished = await waitForJob(job.id, done, new URL(c.req.url).origin).finally(stopWatching);
    if (!finished || !isFinished(finished.status)) {
      // Past the platform's request time: the client continues by polling.
      c.header('location', statusUrl);
      return c.json({ id: job.id, statusUrl } satisfies RenderAccepted, 202);
    }
    if (finished.status === 'completed' && finished.result) {
      const { url, key, durationMs } = finished.result;
      return c.json({ id: finished.id, url, key, durationMs } satisfies RenderFinished);
    }
    if (finished.status === 'cancelled') throw apiError('render-cancelled', `Render ${finished.id} was cancelled.`, { stage: 'capture' });
    throw SeekframeError.fromJSON(finished.error ?? { code: 'render-failed', message: 'The render failed.', retryable: true });
  }

  async function waitForJob(id: string, done: Promise<void>, baseUrl: string): Promise<RenderJob | null> {
    const deadline = now().getTime() + syncTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, syncTimeoutMs);
    });
    await Promise.race([done, timeout]);
    // A detached runner finishes elsewhere: poll its state until it ends or time runs out.
    let job = await freshJob(id, baseUrl).catch(() => null);
    while (job && !isFinished(job.status) && now().getTime() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_SECONDS * 500));
      job = await freshJob(id, baseUrl).catch(() => null);
    }
    if (timer !== undefined) clearTimeout(timer);
    return job;
  }

  /** The job by id, refreshed from a detached runner; 404 unknown, 410 expired. */
  async function freshJob(id: string, baseUrl?: string): Promise<RenderJob> {
    let job = await jobs.get(id);
    if (!job) throw apiError('render-not-found', `No render with id "${id}"; POST /api/render answers the id to poll.`);
    if (Date.parse(job.expiresAt) <= now().getTime()) {
      await dropOutput(job);
      throw apiError('render-expired', `Render ${id} expired at ${job.expiresAt}; its output is no longer kept. Render again.`, { details: { expiresAt: job.expiresAt } });
    }
    if (!isFinished(job.status) && runner.poll && !local.has(id)) {
      const update = await runner.poll(job);
      if (update) {
        const before = job;
        job = (await jobs.update(id, update)) ?? job;
        // A detached render's events are learnt here: its webhook hears what changed.
        const listener = baseUrl === undefined ? null : webhookListener(job, baseUrl);
        if (listener) {
          notifyJobChange(listener, before, job);
          void settleWebhook(id, listener);
        }
      }
    }
    return job;
  }

  return app;
}

function withoutHtml(request: RenderJobRequest): RenderJobRequest {
  const { html: _html, ...rest } = request;
  return rest;
}

function checkRequestSize(request: Request): void {
  const url = new URL(request.url);
  if (url.pathname.length + url.search.length > MAX_URL_BYTES) {
    throw apiError('url-too-long', `The request URL is longer than ${MAX_URL_BYTES} bytes; send parameters in the JSON body.`);
  }
  let bytes = 0;
  request.headers.forEach((value, name) => {
    bytes += name.length + value.length + 4;
  });
  if (bytes > MAX_HEADER_BYTES) {
    throw apiError('headers-too-large', `The request headers are larger than ${MAX_HEADER_BYTES} bytes; send less in headers, or put data in the body.`);
  }
}

function progressOf(job: RenderJob): JobProgress {
  const webhook = job.request.webhook ? { webhook: { url: job.request.webhook.url, attempts: job.webhookAttempts ?? [] } } : {};
  return { id: job.id, status: job.status, stage: job.stage, progress: job.progress, framesRendered: job.framesRendered, totalFrames: job.totalFrames, ...webhook };
}

function wantsJson(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  return /application\/json/i.test(accept) && !/video\/|\*\/\*/i.test(accept.split(',')[0] ?? '');
}
