import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fontPackageVersions } from '@seekframe/engine';
import type { RenderLimits } from '../plan/render-limits.js';
import { checkRenderLimits } from '../plan/render-limits.js';
import { putFile } from '../storage/storage-files.js';
import { checkChunkRuntime, type RuntimeFixes } from './check-chunk-runtime.js';
import type { DistributedDeps, StoredPlan } from './distributed-deps.js';
import { distributedError } from './distributed-error.js';
import { getJson } from './distributed-store.js';
import { chunkName, renderKeys } from './render-keys.js';
import { renderWorkFolder } from './work-folder.js';

export interface ChunkStepInput {
  renderId: string;
  planHash: string;
  chunk: number;
}

export interface ChunkStepOptions {
  /** Stops the render (a cancel, a shutdown, a platform's time limit). */
  signal?: AbortSignal;
  /** Frames rendered so far: about ten calls per chunk, never one per frame, never after the step ended. */
  onProgress?: (progress: { framesRendered: number; frames: number }) => void;
  /** The renderer's own limits on top of the plan's (a fleet worker's --max-* flags). */
  limits?: RenderLimits;
  /** What the version and beginFrame errors tell the user to do on this platform. */
  fixes?: RuntimeFixes;
  /** A name for this attempt's scratch folder (a retry gets a fresh one). Default 0. */
  attempt?: number;
}

export interface ChunkStepResult {
  chunk: number;
  frames: number;
  key: string;
  /** The segment was already in the store (a chunk completed twice): nothing was rendered or written. */
  reused: boolean;
  /**
   * Where the chunk's time went, in ms (absent when reused): `prepare` the plan read, the version
   * check and the project fetched and unpacked (once per render and process); `firstFrame` from
   * the render's start to its first frame (a browser leased or started, the page loaded, the
   * seek to the range's start); `frames` the rest of the capture and encode; `store` the
   * segment's upload.
   */
  timings?: { prepare: number; firstFrame: number; frames: number; store: number };
}

/** Progress reports per chunk: about ten, never one per frame (many chunks x many frames). */
const PROGRESS_STEPS = 10;

/**
 * Renders frames [start, end) of a stored plan into a video-only segment that joins without
 * re-encoding, after checking the plan hash, the binaries and beginFrame, and stores it at the
 * chunk's deterministic key with If-None-Match: a chunk rendered twice (a retry after a lost
 * answer, a stalled job that was not dead) writes its key once, and a segment already stored is
 * not rendered again. The page always runs in the network sandbox.
 */
export async function chunkStep(deps: DistributedDeps, input: ChunkStepInput, options: ChunkStepOptions = {}): Promise<ChunkStepResult> {
  const index = input.chunk;
  const keys = renderKeys(input.renderId);
  const clock = deps.now ?? Date.now;
  const begun = clock();
  const stored = await loadPlan(deps, input.renderId, input.planHash, `Chunk ${index}`);
  const range = stored.chunks[index];
  if (!range)
    throw distributedError('plan-hash-mismatch', `Chunk ${index} is not in the plan (it has ${stored.chunks.length} chunks).`, {
      stage: 'config',
    });
  const frames = range.end - range.start;
  const key = keys.chunk(index);
  if (options.limits) {
    checkRenderLimits(
      options.limits,
      { frames: stored.plan.totalFrames, width: stored.plan.width, height: stored.plan.height, workers: 1 },
      `render ${input.renderId}`,
    );
  }
  if (await deps.store.head(key)) return { chunk: index, frames, key, reused: true };

  const browser = await deps.runtime.browser();
  const ffmpeg = await deps.runtime.ffmpeg();
  checkChunkRuntime(stored.plan, browser, ffmpeg, await fontPackageVersions(), options.fixes);
  const { root, projectDir } = await renderWorkFolder(deps, input.renderId);
  const segment = path.join(root, 'chunks', `${chunkName(index)}-${options.attempt ?? 0}.mp4`);
  await mkdir(path.dirname(segment), { recursive: true });

  const every = Math.max(1, Math.ceil(frames / PROGRESS_STEPS));
  const renderStarted = clock();
  let firstFrameAt: number | undefined;
  let lastReported = 0;
  // Set once the frames are rendered: a progress event emitted before but delivered after must
  // not report the chunk as unfinished behind its final answer.
  let finished = false;
  options.onProgress?.({ framesRendered: 0, frames });
  const onEvent = (e: { type: string; framesRendered?: number }): void => {
    if (finished || e.type !== 'progress' || typeof e.framesRendered !== 'number') return;
    if (firstFrameAt === undefined && e.framesRendered > 0) firstFrameAt = clock();
    const done = Math.min(frames, e.framesRendered);
    if (done - lastReported < every && done < frames) return;
    lastReported = done;
    options.onProgress?.({ framesRendered: done, frames });
  };
  const workDir = path.join(root, `work-${chunkName(index)}-${options.attempt ?? 0}`);
  try {
    const result = await deps.core.renderFrames(
      stored.plan,
      { start: range.start, end: range.end },
      { kind: 'segment', path: segment },
      {
        projectDir,
        browser,
        ffmpeg: { ffmpeg: ffmpeg.ffmpeg, ffprobe: ffmpeg.ffprobe },
        network: 'sandboxed',
        workDir,
        onEvent,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.limits ? { limits: options.limits } : {}),
        ...(deps.runtimeSource ? { runtimeSource: deps.runtimeSource } : {}),
        ...(deps.browsers ? { browsers: deps.browsers } : {}),
      },
    );
    if (result.frames !== frames) {
      throw distributedError(
        'segment-missing',
        `Chunk ${index} produced ${result.frames} frames instead of ${frames} (frames ${range.start}-${range.end - 1}).`,
        { stage: 'encode', retryable: true },
      );
    }
    finished = true;
    const rendered = clock();
    // Create-only: the same chunk rendered twice is the same bytes, so the first write stands.
    const { created } = await putFile(deps.store, key, result.output, { contentType: 'video/mp4', ifNoneMatch: '*' });
    const first = firstFrameAt ?? rendered;
    return {
      chunk: index,
      frames,
      key,
      reused: !created,
      timings: { prepare: renderStarted - begun, firstFrame: first - renderStarted, frames: rendered - first, store: clock() - rendered },
    };
  } finally {
    finished = true;
    // Extracted video frames, downloads and the local segment of this chunk.
    await rm(workDir, { recursive: true, force: true });
    await rm(segment, { force: true });
  }
}

/** The stored plan of a render, refused when it is missing or not the plan the step was started for. */
export async function loadPlan(
  deps: Pick<DistributedDeps, 'store'>,
  renderId: string,
  planHash: string,
  what: string,
): Promise<StoredPlan> {
  const stored = await getJson<StoredPlan>(deps.store, renderKeys(renderId).plan);
  if (!stored)
    throw distributedError(
      'plan-hash-mismatch',
      `renders/${renderId}/plan.json is missing: ${what} has no plan to render. Start the render again.`,
      { stage: 'config' },
    );
  if (stored.plan.hash !== planHash) {
    throw distributedError(
      'plan-hash-mismatch',
      `${what} was started for plan ${planHash}, but renders/${renderId}/plan.json holds plan ${stored.plan.hash}. Start the render again.`,
      { stage: 'config', details: { expected: planHash, found: stored.plan.hash } },
    );
  }
  return stored;
}
