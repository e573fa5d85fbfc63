import { DurableObject } from 'cloudflare:workers';
import type { SeekframeErrorData } from '@seekframe/composition';
import { isFinished, mergeJobUpdate, type JobUpdate, type RenderJob, type RunnerJob } from '@seekframe/render-api';
import { containerPaths, type ContainerEvent, type ContainerRenderBody } from './container-protocol.js';
import { containerTransport, localTransport, type ContainerStub, type ContainerTransport } from './container-transport.js';
import { r2ObjectUrl, putKnownLength } from './r2-object-store.js';
import { jobObjectWebhooks, type WebhookEnv } from './job-object-webhooks.js';

/** The bindings the job object reads (names as in apps/cloudflare-container/wrangler.jsonc). */
export interface RenderJobEnv extends WebhookEnv {
  /** This class's own namespace (job records and Idempotency-Key claims). */
  JOBS: DurableObjectNamespace;
  /** The Container class; absent or unused in local mode. */
  RENDERER?: DurableObjectNamespace;
  /** R2 bucket `seekframe-renders`. */
  RENDERS: R2Bucket;
  /** Local mode: the container's server on the host, e.g. http://127.0.0.1:8080. */
  CONTAINER_LOCAL_URL?: string;
  /** Public base URL of the bucket (custom domain / r2.dev); default: served by the Worker at /r/<key>. */
  R2_PUBLIC_URL?: string;
  /** Seconds past RENDER_MAX_SECONDS before the watchdog fails a job whose renderer went silent (default 180). */
  RENDER_WATCHDOG_GRACE_SECONDS?: string;
}

/** A failed start: the runner turns it back into a SeekframeError (errors lose their fields over RPC). */
export type StartAnswer = { ok: true } | { ok: false; error: SeekframeErrorData };

const JOB_KEY = 'job';
const CLAIM_KEY = 'claimed-job-id';
const STARTED_KEY = 'started';
const ORIGIN_KEY = 'origin';
/** Progress is written at most once a second: a storage write per frame would cost more than the render. */
const PROGRESS_WRITE_MS = 1000;
/** The watchdog fires this long after the render's own wall-time limit (cold start, upload to R2). */
const WATCHDOG_GRACE_SECONDS = 180;

/**
 * One render job, as a Durable Object named `job:<id>`: its record (the render API's JobStore
 * reads and writes it here) and the render itself. `start` reserves the job's own renderer
 * (429 at capacity), then drives it in the background: the container's NDJSON progress goes into
 * the record, the finished file streams into R2 under the job's key, and the renderer is freed.
 * The same class named `idem:<key>` holds one Idempotency-Key claim (atomic: a Durable Object
 * runs one call at a time per name), and the one named `active-jobs` counts the jobs that are
 * queued or running (RENDER_MAX_CONCURRENT answers 429 before a job is created).
 *
 * Why a Durable Object and not the Worker request: with `Prefer: respond-async` the request ends
 * at once, and a Worker's waitUntil lasts 30 s. A Durable Object stays alive while its own call
 * to the container is pending (compatibility flag durable_object_io_tasks_prevent_eviction, the
 * default from 2026-10-01), and an alarm is the watchdog if it is evicted anyway.
 */
export class RenderJobObject extends DurableObject<RenderJobEnv> {
  private job: RenderJob | null | undefined;
  private running: AbortController | undefined;
  private lastProgressWrite = 0;
  /** The job's webhook: every record change goes through it (job-object-webhooks.ts). */
  private readonly webhooks = jobObjectWebhooks(this.env, {
    record: async (_id, attempts) => {
      const job = await this.load();
      if (job) await this.save({ ...job, webhookAttempts: attempts });
    },
    origin: async () => this.ctx.storage.get<string>(ORIGIN_KEY),
    waitUntil: (promise) => this.ctx.waitUntil(promise),
  });

  // ---- job record (JobStore) -----------------------------------------------------------------

  async createJob(job: RenderJob): Promise<{ created: boolean; job: RenderJob }> {
    const existing = await this.load();
    if (existing) return { created: false, job: existing };
    await this.save(job);
    return { created: true, job };
  }

  async getJob(): Promise<RenderJob | null> {
    return this.load();
  }

  async updateJob(update: JobUpdate): Promise<RenderJob | null> {
    const job = await this.load();
    if (!job) return null;
    return this.apply(job, update);
  }

  // ---- Idempotency-Key claims ----------------------------------------------------------------

  /** Claims this key for `jobId`; answers the id that holds it (an earlier claim wins). */
  async claimKey(jobId: string): Promise<string> {
    const existing = await this.ctx.storage.get<string>(CLAIM_KEY);
    if (existing !== undefined) return existing;
    await this.ctx.storage.put(CLAIM_KEY, jobId);
    return jobId;
  }

  async claimedJobId(): Promise<string | null> {
    return (await this.ctx.storage.get<string>(CLAIM_KEY)) ?? null;
  }

  // ---- the render (RenderRunner) -------------------------------------------------------------

  async start(runnerJob: RunnerJob): Promise<StartAnswer> {
    if (await this.ctx.storage.get<boolean>(STARTED_KEY)) return { ok: true };
    const transport = this.transport(runnerJob.id);
    const reserved = await transport.reserve();
    if (!reserved.ok) return reserved;
    await this.ctx.storage.put(STARTED_KEY, true);
    if (runnerJob.origin) await this.ctx.storage.put(ORIGIN_KEY, runnerJob.origin);
    // A cancel can arrive while the instance starts (other calls run while this one waits).
    const current = await this.load();
    if (!current || isFinished(current.status)) {
      await transport.release();
      return { ok: true };
    }
    const grace =
      Number(this.env.RENDER_WATCHDOG_GRACE_SECONDS) > 0 ? Number(this.env.RENDER_WATCHDOG_GRACE_SECONDS) : WATCHDOG_GRACE_SECONDS;
    await this.ctx.storage.setAlarm(Date.now() + (runnerJob.limits.maxRenderSeconds + grace) * 1000);
    const controller = new AbortController();
    this.running = controller;
    this.ctx.waitUntil(this.drive(runnerJob, transport, controller.signal));
    return { ok: true };
  }

  async cancel(): Promise<void> {
    this.running?.abort();
    const job = await this.load();
    // The container's DELETE stops the render even when this object was restarted meanwhile.
    if (job) await this.transport(job.id).release();
  }

  /** Watchdog (the render outlived its limit: the object was evicted or the container lost) and expiry. */
  override async alarm(): Promise<void> {
    const job = await this.load();
    if (!job) return;
    if (!isFinished(job.status)) {
      this.running?.abort();
      await this.transport(job.id).release();
      await this.apply(job, {
        status: 'failed',
        error: {
          code: 'render-timeout',
          message: `Render ${job.id} did not finish in time (its renderer stopped answering or ran past the wall-time limit); render again.`,
          stage: 'capture',
          retryable: true,
        },
      });
      await this.ctx.storage.setAlarm(Date.parse(job.expiresAt));
      return;
    }
    if (Date.now() >= Date.parse(job.expiresAt)) {
      // Past retention the API answers 410; the file itself goes too.
      await this.env.RENDERS.delete(job.outputKey);
    } else {
      await this.ctx.storage.setAlarm(Date.parse(job.expiresAt));
    }
  }

  private async drive(runnerJob: RunnerJob, transport: ContainerTransport, signal: AbortSignal): Promise<void> {
    const { request } = runnerJob;
    const body: ContainerRenderBody = {
      variables: request.variables,
      format: request.format,
      ...(request.quality ? { quality: request.quality } : {}),
      ...(request.fps !== undefined ? { fps: request.fps } : {}),
      ...(request.frames ? { frames: request.frames } : {}),
      ...(request.still ? { still: request.still } : {}),
      ...(request.html !== undefined ? { html: request.html } : {}),
      limits: runnerJob.limits,
    };
    let failure: SeekframeErrorData | undefined;
    try {
      const response = await transport.fetch(containerPaths.render(runnerJob.id), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      if (!response.ok || !response.body) {
        failure = await answerError(response, 'The render container refused the render');
      } else {
        const last = await this.follow(response.body);
        if (last?.type === 'complete') {
          failure = await this.store(runnerJob, transport, last, signal).then(
            () => undefined,
            (error: unknown): SeekframeErrorData | undefined =>
              signal.aborted
                ? undefined
                : {
                    code: 'output-write-failed',
                    message: `Storing ${runnerJob.outputKey} in R2 failed: ${error instanceof Error ? error.message : String(error)}; render again.`,
                    stage: 'output',
                    retryable: true,
                  },
          );
        } else {
          failure = last?.type === 'error' ? last.error : lostError('its event stream ended without a result');
        }
      }
    } catch (error) {
      if (!signal.aborted) failure = lostError(error instanceof Error ? error.message : String(error));
    } finally {
      this.running = undefined;
      await transport.release();
    }
    const job = await this.load();
    if (!job) return;
    if (failure && !isFinished(job.status)) await this.apply(job, { status: 'failed', error: failure });
    // The watchdog is no longer needed; the next alarm removes the file once the job expires.
    await this.ctx.storage.setAlarm(Date.parse(job.expiresAt));
  }

  /** Reads the NDJSON events into the record; answers the last one (complete or error). */
  private async follow(stream: ReadableStream<Uint8Array>): Promise<ContainerEvent | undefined> {
    const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = '';
    let last: ContainerEvent | undefined;
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffered += value;
      const lines = buffered.split('\n');
      buffered = done ? '' : lines.pop()!;
      for (const line of lines) {
        if (!line.trim()) continue;
        const event = JSON.parse(line) as ContainerEvent;
        last = event;
        await this.record(event);
      }
      if (done) return last;
    }
  }

  private async record(event: ContainerEvent): Promise<void> {
    const job = await this.load();
    if (!job || isFinished(job.status)) return;
    if (event.type === 'stage') {
      await this.apply(job, { status: 'running', stage: event.stage as RenderJob['stage'] });
    } else if (event.type === 'progress') {
      const update: JobUpdate = {
        status: 'running',
        stage: event.stage as RenderJob['stage'],
        framesRendered: event.framesRendered,
        totalFrames: event.totalFrames,
        progress: Math.min(1, Math.max(0, event.percent / 100)),
      };
      const now = Date.now();
      if (now - this.lastProgressWrite >= PROGRESS_WRITE_MS) {
        this.lastProgressWrite = now;
        await this.apply(job, update);
      } else {
        this.job = { ...job, ...update }; // kept in memory; the next write carries it
      }
    }
  }

  /** Streams the finished file from the container into R2 (with its length, which R2 needs). */
  private async store(
    runnerJob: RunnerJob,
    transport: ContainerTransport,
    complete: Extract<ContainerEvent, { type: 'complete' }>,
    signal: AbortSignal,
  ): Promise<void> {
    const before = await this.load();
    if (!before || isFinished(before.status)) return; // cancelled meanwhile: nothing goes to R2
    const response = await transport.fetch(containerPaths.output(runnerJob.id), { signal });
    if (!response.ok || !response.body) throw new Error(`GET ${containerPaths.output(runnerJob.id)} answered HTTP ${response.status}`);
    const length = Number(response.headers.get('content-length') ?? complete.size);
    await putKnownLength(this.env.RENDERS, runnerJob.outputKey, response.body, length, complete.contentType);
    const job = await this.load();
    if (!job || isFinished(job.status)) return; // cancelled meanwhile: the API already answered
    await this.apply(job, {
      status: 'completed',
      stage: 'finish',
      progress: 1,
      framesRendered: complete.frames,
      totalFrames: complete.frames,
      result: {
        url: r2ObjectUrl(runnerJob.outputKey, this.env.R2_PUBLIC_URL),
        key: runnerJob.outputKey,
        durationMs: complete.durationMs,
        size: length,
        contentType: complete.contentType,
      },
    });
  }

  private transport(jobId: string): ContainerTransport {
    if (this.env.CONTAINER_LOCAL_URL) return localTransport(this.env.CONTAINER_LOCAL_URL, jobId);
    if (!this.env.RENDERER) throw new Error('Neither the RENDERER container binding nor CONTAINER_LOCAL_URL is set; see wrangler.jsonc.');
    // The job's own instance, named after the job: max_instances caps renders at once.
    const stub = this.env.RENDERER.get(this.env.RENDERER.idFromName(`render-${jobId}`)) as unknown as ContainerStub;
    return containerTransport(stub, jobId);
  }

  private async load(): Promise<RenderJob | null> {
    if (this.job === undefined) this.job = (await this.ctx.storage.get<RenderJob>(JOB_KEY)) ?? null;
    return this.job;
  }

  private async save(job: RenderJob): Promise<void> {
    this.job = job;
    await this.ctx.storage.put(JOB_KEY, job);
  }

  /** Merges an update as every job store does (mergeJobUpdate: a finished job keeps its ending). */
  private async apply(job: RenderJob, update: JobUpdate): Promise<RenderJob> {
    const next = mergeJobUpdate(job, update, new Date().toISOString());
    if (next === job) return job;
    await this.save(next);
    // The webhook hears what changed (started, progress, completed, failed; never blocks the job).
    await this.webhooks.change(update, next).catch(() => undefined);
    // A job that just finished no longer counts against RENDER_MAX_CONCURRENT.
    if (!isFinished(job.status) && isFinished(next.status))
      await activeJobsObject(this.env.JOBS)
        .untrack(job.id)
        .catch(() => undefined);
    return next;
  }

  // ---- the deployment's active jobs (the object named `active-jobs`) -------------------------

  /** Counts `id` as active until it finishes, or until `staleAtMs` when its object never reports back. */
  async track(id: string, staleAtMs: number): Promise<void> {
    await this.ctx.storage.put(`active:${id}`, staleAtMs);
  }

  async untrack(id: string): Promise<void> {
    await this.ctx.storage.delete(`active:${id}`);
  }

  async countActive(): Promise<number> {
    const entries = await this.ctx.storage.list<number>({ prefix: 'active:' });
    const now = Date.now();
    const stale = [...entries].filter(([, staleAt]) => staleAt <= now).map(([key]) => key);
    if (stale.length > 0) await this.ctx.storage.delete(stale);
    return entries.size - stale.length;
  }
}

/** The one object that counts the deployment's queued and running jobs. */
export function activeJobsObject(namespace: DurableObjectNamespace): DurableObjectStub<RenderJobObject> {
  return namespace.get(namespace.idFromName('active-jobs')) as DurableObjectStub<RenderJobObject>;
}

function lostError(detail: string): SeekframeErrorData {
  return {
    code: 'container-unavailable',
    message: `The render container stopped answering (${detail}); render again. If it keeps happening, check the container's logs and its instance type's memory.`,
    stage: 'capture',
    retryable: true,
  };
}

async function answerError(response: Response, prefix: string): Promise<SeekframeErrorData> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: SeekframeErrorData };
    if (parsed.error && typeof parsed.error.code === 'string') return parsed.error;
  } catch {
    // plain text from @cloudflare/containers
  }
  return lostError(`${prefix}: HTTP ${response.status}${text ? ` ${text.slice(0, 200)}` : ''}`);
}
