import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SeekframeError } from '@seekframe/composition';
import type { DistributedStore, RenderCore, RenderRuntime } from '@seekframe/producer/distributed';
import type { ObjectStore, RenderRunner, RunnerContext, RunnerJob, RunnerOutcome } from '@seekframe/render-api';
import type { QueueSettings } from './queue-settings.js';
import { fleetProgressEvents } from './fleet-progress.js';
import { renderOnFleet } from './submit-fleet-render.js';

export interface QueueRunnerOptions {
  /** The composition the API renders (its index.html), or the custom HTML of a job where allowed. */
  compositionDir: string;
  /** Where the API wants finished files (under each job's outputKey). */
  objects: ObjectStore;
  queue: QueueSettings;
  /** The fleet's store (the workers' --store). */
  store: DistributedStore;
  /** Renders this API follows at once; more are refused with too-many-renders. Default 2. */
  maxConcurrent?: number;
  /** Frames per chunk (default one second of video). */
  chunkFrames?: number;
  tempDir?: string;
  runtime?: RenderRuntime;
  core?: RenderCore;
  pollMs?: number;
  outageLimitMs?: number;
}

/**
 * The render API's runner for a fleet (`seekframe serve --queue`, a template's server): each job
 * is planned here and fanned out to the workers as one BullMQ flow; progress from every worker
 * reaches the job's status, a cancel (DELETE, a disconnect) stops every chunk, and the finished
 * video is put in the API's object store. Statuses and webhooks are the render API's own.
 */
export function createQueueRunner(options: QueueRunnerOptions): RenderRunner & { running(): number; cancelAll(): Promise<void> } {
  const maxConcurrent = options.maxConcurrent ?? 2;
  const controllers = new Map<string, AbortController>();
  const inFlight = new Set<Promise<unknown>>();

  const run = async (job: RunnerJob, context: RunnerContext, work: string, signal: AbortSignal): Promise<RunnerOutcome> => {
    let projectDir = path.resolve(options.compositionDir);
    if (job.request.html !== undefined) {
      projectDir = path.join(work, 'project');
      await mkdir(projectDir);
      await writeFile(path.join(projectDir, 'index.html'), job.request.html);
    }
    const output = path.join(work, `output.${job.request.format}`);
    const started = Date.now();
    const progress = fleetProgressEvents();
    context.emit({ type: 'stage', stage: 'load' });
    const result = await renderOnFleet({
      queue: options.queue,
      store: options.store,
      projectDir,
      output,
      request: {
        variables: job.request.variables,
        format: job.request.format,
        ...(job.request.quality ? { quality: job.request.quality } : {}),
        ...(job.request.fps !== undefined ? { fps: job.request.fps } : {}),
        ...(job.request.frames ? { frames: job.request.frames } : {}),
      },
      limits: job.limits,
      signal,
      ...(options.chunkFrames !== undefined ? { chunkFrames: options.chunkFrames } : {}),
      ...(options.runtime ? { runtime: options.runtime } : {}),
      ...(options.core ? { core: options.core } : {}),
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
      ...(options.outageLimitMs ? { outageLimitMs: options.outageLimitMs } : {}),
      onEvent: (event) => {
        const shown = progress(event);
        if (shown) context.emit(shown);
      },
    });
    const { size } = await stat(result.output);
    await options.objects.put(job.outputKey, Readable.toWeb(createReadStream(result.output)) as unknown as ReadableStream<Uint8Array>, {
      contentType: job.contentType,
    });
    return { kind: 'stored', durationMs: Date.now() - started, size };
  };

  return {
    running: () => controllers.size,
    async start(job, context) {
      // Counted before the first await, so two starts in one tick cannot both take the last slot.
      if (controllers.size >= maxConcurrent) {
        throw new SeekframeError('too-many-renders', `This server follows ${maxConcurrent} fleet render(s) already; try again shortly.`, {
          stage: 'config',
          retryable: true,
        });
      }
      const controller = new AbortController();
      controllers.set(job.id, controller);
      const signal = AbortSignal.any([controller.signal, context.signal]);
      const rendering = (async () => {
        const work = await mkdtemp(path.join(options.tempDir ?? os.tmpdir(), 'seekframe-fleet-job-'));
        try {
          return await run(job, context, work, signal);
        } finally {
          controllers.delete(job.id);
          await rm(work, { recursive: true, force: true });
        }
      })();
      inFlight.add(rendering);
      void rendering.catch(() => undefined).finally(() => inFlight.delete(rendering));
      return rendering;
    },
    async cancel(id) {
      controllers.get(id)?.abort(new Error('cancelled'));
    },
    async cancelAll() {
      for (const controller of controllers.values()) controller.abort(new Error('the server is closing'));
      await Promise.allSettled([...inFlight]);
    },
  };
}
