import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { httpStatusOf, SeekframeError, type CompositionMetadata } from '@seekframe/composition';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { apiError } from '../api-error.js';
import { checkRenderRequest } from '../check-render-request.js';
import { POLL_SECONDS, type JobRequestContext, type JobService } from '../job-service.js';
import type { ObjectStore } from '../ports.js';
import type { AnswerMode, RenderApiLimits, RenderApiWebhooks } from '../render-api-options.js';
import { isFinished, jobOutput, type JobProgress, type RenderJob } from '../render-job.js';
import type { RenderAccepted, RenderCallId, RenderCancelled, RenderFinished } from '../render-answers.js';
import { serveObject } from '../serve-object.js';

export interface RenderRoutesOptions {
  service: JobService;
  objects: ObjectStore;
  loadComposition: () => Promise<CompositionMetadata>;
  /** The deployment's composition through the shared preflight (once); throws lint-failed. */
  preflight: () => Promise<void>;
  answerMode: AnswerMode;
  allowCustomHtml: boolean;
  allowStills: boolean;
  limits: RenderApiLimits;
  /** The webhook rules a body's `webhook` must pass at POST (a secret to sign with, a reachable address). */
  webhooks?: RenderApiWebhooks | undefined;
}

/**
 * `POST /render`, `GET /render/:id`, `DELETE /render/:id` (mounted under /api): HTTP in, job
 * service calls, HTTP out. How a POST answers: `Prefer: respond-async` or async mode -> 202 `{id, statusUrl}`;
 * call-id mode -> `{call_id}`; else it waits for the file (`{id, url, key, durationMs}`), or 202
 * past the platform's request time.
 */
export function renderRoutes(options: RenderRoutesOptions): Hono {
  const { service, objects, limits } = options;
  return new Hono()
    .post(
      '/render',
      bodyLimit({
        maxSize: limits.maxBodyBytes,
        onError: () => {
          throw apiError(
            'body-too-large',
            `The request body is larger than this deployment's limit of ${limits.maxBodyBytes} bytes; send fewer or shorter variables.`,
            {
              details: { limit: limits.maxBodyBytes },
            },
          );
        },
      }),
      async (c) => {
        const checked = await checkRenderRequest(await c.req.text(), {
          composition: options.loadComposition,
          preflight: options.preflight,
          allowCustomHtml: options.allowCustomHtml,
          allowStills: options.allowStills,
          limits,
          webhooks: options.webhooks,
        });
        const idempotencyKey = c.req.header('idempotency-key')?.trim() || undefined;
        if (idempotencyKey !== undefined && idempotencyKey.length > 255) {
          throw apiError('invalid-body', 'Idempotency-Key is longer than 255 characters; use a UUID.');
        }
        const context = requestContext(c);
        const { job, created } = await service.start({ ...checked, ...(idempotencyKey ? { idempotencyKey } : {}) }, context);
        const statusUrl = `/api/render/${encodeURIComponent(job.id)}`;
        const preferAsync = /\brespond-async\b/i.test(c.req.header('prefer') ?? '');
        if (preferAsync || options.answerMode === 'async') {
          c.header('location', statusUrl);
          if (preferAsync) c.header('preference-applied', 'respond-async');
          return c.json({ id: job.id, statusUrl } satisfies RenderAccepted, 202);
        }
        if (options.answerMode === 'call-id') {
          c.header('location', statusUrl);
          return c.json({ call_id: job.id } satisfies RenderCallId);
        }
        // Only the client that started a render cancels it by leaving; a retry's client does not.
        const finished = await service.wait(job.id, created ? { cancelOnAbort: c.req.raw.signal, context } : { context });
        if (!finished || !isFinished(finished.status)) {
          // Past the platform's request time: the client continues by polling.
          c.header('location', statusUrl);
          return c.json({ id: job.id, statusUrl } satisfies RenderAccepted, 202);
        }
        if (finished.status === 'completed' && finished.result) {
          const { url, key, durationMs } = finished.result;
          return c.json({ id: finished.id, url, key, durationMs } satisfies RenderFinished);
        }
        if (finished.status === 'cancelled')
          throw apiError('render-cancelled', `Render ${finished.id} was cancelled.`, { stage: 'capture' });
        throw failureOf(finished);
      },
    )
    .get('/render/:id', async (c) => {
      const job = await service.get(c.req.param('id'), requestContext(c));
      if (job.status === 'queued' || job.status === 'running') {
        c.header('retry-after', String(POLL_SECONDS));
        c.header('cache-control', 'no-store');
        return c.json(progressOf(job), 202);
      }
      if (job.status === 'failed' || job.status === 'cancelled') {
        const ending =
          job.status === 'failed'
            ? failureOf(job)
            : apiError('render-cancelled', `Render ${job.id} was cancelled; start a new one with POST /api/render.`, { stage: 'capture' });
        // A JSON client gets the status too (the webhook's attempts, which go on after the end:
        // render.failed is retried), under the error's own HTTP status; others get the error alone.
        if (!wantsJson(c)) throw ending;
        c.header('cache-control', 'no-store');
        return c.json({ error: ending.toJSON(), ...progressOf(job) }, httpStatusOf(ending.code) as ContentfulStatusCode);
      }
      if (wantsJson(c)) return c.json({ ...progressOf(job), result: job.result });
      const url = await objects.url(job.outputKey);
      if (url) return c.redirect(url, 302);
      return serveObject(objects, job.outputKey, c.req.raw, { downloadName: `${job.id}.${jobOutput(job.request).extension}` });
    })
    .delete('/render/:id', async (c) => {
      const id = c.req.param('id');
      const job = await service.cancel(id, `Render ${id} was cancelled by a DELETE request.`);
      return c.json({ id: job.id, status: 'cancelled' } satisfies RenderCancelled, 202);
    });
}

function failureOf(job: RenderJob): SeekframeError {
  return SeekframeError.fromJSON(job.error ?? { code: 'render-failed', message: 'The render failed.', retryable: true });
}

/** The public progress: the runner's own fields (RenderRunner.progressFields), then the shared ones over them. */
function progressOf(job: RenderJob): JobProgress {
  const webhook = job.request.webhook ? { webhook: { url: job.request.webhook.url, attempts: job.webhookAttempts ?? [] } } : {};
  return {
    ...job.runnerProgress,
    id: job.id,
    status: job.status,
    stage: job.stage,
    progress: job.progress,
    framesRendered: job.framesRendered,
    totalFrames: job.totalFrames,
    ...webhook,
  };
}

/** The origin this request reached the API at (webhook URLs are made absolute with it). */
function requestContext(c: Context): JobRequestContext {
  return { baseUrl: new URL(c.req.url).origin };
}

function wantsJson(c: Context): boolean {
  const accept = c.req.header('accept') ?? '';
  return /application\/json/i.test(accept) && !/video\/|\*\/\*/i.test(accept.split(',')[0] ?? '');
}
