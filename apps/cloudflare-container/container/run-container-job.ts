import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import { renderComposition, renderStills, type RenderEvent, type RenderLimits } from '@seekframe/producer';
import { OUTPUT_CONTENT_TYPES, type ContainerEvent, type ContainerRenderBodySchema } from '@seekframe/cloudflare-container/protocol';
import type { Job } from './job-slots.js';

/** Progress lines are throttled: the Worker side stores at most one state per second anyway. */
const PROGRESS_INTERVAL_MS = 250;

export interface ContainerRenderSettings {
  /** The composition baked into the image (a folder with index.html). */
  compositionDir: string;
  /** Where renders and custom-HTML projects are written. */
  workDir: string;
  limits: RenderLimits;
  workers: 'auto' | number;
}

/** Runs one render and yields its NDJSON lines (throttled progress, the other events as they come, then `complete` or `error`). */
export async function* runContainerJob(
  job: Job,
  body: z.output<typeof ContainerRenderBodySchema>,
  settings: ContainerRenderSettings,
): AsyncGenerator<string> {
  const queue: ContainerEvent[] = [];
  let wake: (() => void) | undefined;
  let lastProgress = 0;
  const push = (event: ContainerEvent) => {
    queue.push(event);
    wake?.();
  };
  const onEvent = (event: RenderEvent) => {
    if (event.type === 'complete' || event.type === 'error') return; // answered below, in our own shape
    if (event.type === 'progress') {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_INTERVAL_MS && event.framesRendered < event.totalFrames) return;
      lastProgress = now;
    }
    push(event);
  };
  let finished: ContainerEvent | undefined;
  void render(job, body, settings, onEvent).then((event) => {
    finished = event;
    wake?.();
  });
  while (true) {
    while (queue.length > 0) yield `${JSON.stringify(queue.shift())}\n`;
    if (finished) {
      yield `${JSON.stringify(finished)}\n`;
      return;
    }
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}

/** The render itself, in the job's folder; its last event (`complete` or `error`). Never rejects. */
async function render(
  job: Job,
  body: z.output<typeof ContainerRenderBodySchema>,
  settings: ContainerRenderSettings,
  onEvent: (event: RenderEvent) => void,
): Promise<ContainerEvent> {
  const format = body.format ?? 'mp4';
  try {
    await mkdir(settings.workDir, { recursive: true });
    let projectDir = settings.compositionDir;
    if (body.html !== undefined) {
      job.projectDir = await mkdtemp(join(settings.workDir, `html-${job.id}-`));
      await writeFile(join(job.projectDir, 'index.html'), body.html);
      projectDir = job.projectDir;
    }
    const shared = {
      projectDir,
      ...(body.fps !== undefined ? { fps: body.fps } : {}),
      variables: body.variables ?? {},
      strictVariables: true,
      limits: effectiveLimits(settings.limits, body.limits),
      network: 'sandboxed' as const,
      signal: job.abort.signal,
    };
    // A still: the frame's PNG (renderStills, one browser), not a video.
    const result = body.still
      ? await renderStills({ ...shared, output: join(settings.workDir, `${job.id}.png`), at: [body.still] }, onEvent).then((stills) => ({
          output: stills.stills[0]!.output,
          durationMs: stills.durationMs,
          videoDuration: 0,
          frames: 1,
          contentType: 'image/png',
        }))
      : await renderComposition(
          {
            ...shared,
            output: join(settings.workDir, `${job.id}.${format}`),
            format,
            ...(body.quality ? { quality: body.quality } : {}),
            ...(body.frames ? { frames: body.frames } : {}),
            workers: settings.workers,
          },
          onEvent,
        ).then((video) => ({ ...video, contentType: OUTPUT_CONTENT_TYPES[format] }));
    const size = (await stat(result.output)).size;
    job.output = { file: result.output, size, contentType: result.contentType };
    return {
      type: 'complete',
      size,
      contentType: job.output.contentType,
      durationMs: result.durationMs,
      videoDuration: result.videoDuration,
      frames: result.frames,
    };
  } catch (error) {
    const data: SeekframeErrorData =
      error instanceof SeekframeError
        ? error.toJSON()
        : { code: 'render-failed', message: error instanceof Error ? error.message : String(error), retryable: false };
    return { type: 'error', error: data };
  } finally {
    job.running = false;
    if (job.projectDir) {
      await rm(job.projectDir, { recursive: true, force: true });
      delete job.projectDir;
    }
  }
}

/** The deployment's limits (sent with each job) never raise the container's own (its env). */
export function effectiveLimits(
  own: RenderLimits,
  requested: Partial<Record<'maxFrames' | 'maxRenderSeconds' | 'maxPixels' | 'maxMemoryMB', number>> | undefined,
): RenderLimits {
  const merged: RenderLimits = { ...own };
  for (const name of ['maxFrames', 'maxRenderSeconds', 'maxPixels', 'maxMemoryMB'] as const) {
    const asked = requested?.[name];
    if (asked === undefined) continue;
    const ceiling = own[name];
    merged[name] = ceiling === undefined ? asked : Math.min(ceiling, asked);
  }
  return merged;
}
