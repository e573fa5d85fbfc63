import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { toSeekframeError } from '@seekframe/composition';
import { renderComposition } from '../render/render-composition.js';
import type { RenderLimits } from '../plan/render-limits.js';
import type { OutputStore } from './output-store.js';
import type { ParsedRenderRequest } from './render-request.js';
import { INLINE_PROJECT_PREFIX } from './server-options.js';
import type { FinalServerEvent, ProducerServerEvent } from './server-events.js';

export interface RenderJob {
  requestId: string;
  request: ParsedRenderRequest;
  signal: AbortSignal;
  emit(event: ProducerServerEvent): void;
  /** The server's per-render limits and page timeout. */
  settings: { limits: RenderLimits; pageTimeoutMs: number };
}

/**
 * One server render: an inline `html` body becomes a temp project (removed afterwards), the
 * output goes to the store under a fresh token, and the page runs sandboxed. Ends with exactly
 * one final event, which it also returns; `cancelled` replaces the render's own cancellation error.
 */
export async function runRenderJob(job: RenderJob, outputs: OutputStore): Promise<FinalServerEvent> {
  let inlineDir: string | undefined;
  const finish = (event: FinalServerEvent): FinalServerEvent => {
    job.emit(event);
    return event;
  };
  try {
    let projectDir: string;
    if (job.request.source.kind === 'html') {
      inlineDir = await mkdtemp(INLINE_PROJECT_PREFIX);
      await writeFile(path.join(inlineDir, 'index.html'), job.request.source.html);
      projectDir = inlineDir;
    } else {
      projectDir = job.request.source.projectDir;
    }
    const { token, file } = outputs.allocate(job.request.options.format);
    const result = await renderComposition(
      { ...job.request.options, projectDir, output: file, network: 'sandboxed', signal: job.signal, limits: job.settings.limits, readyTimeoutMs: job.settings.pageTimeoutMs, seekTimeoutMs: job.settings.pageTimeoutMs },
      (event) => {
        // The final event is sent below, in the server's own shape.
        if (event.type !== 'complete' && event.type !== 'error') job.emit(event);
      },
    );
    return finish({
      type: 'complete',
      requestId: job.requestId,
      outputUrl: `/outputs/${token}`,
      size: result.size,
      durationMs: result.durationMs,
      videoDuration: result.videoDuration,
    });
  } catch (error) {
    if (job.signal.aborted) return finish({ type: 'cancelled', requestId: job.requestId, reason: reasonOf(job.signal) });
    return finish({ type: 'error', error: toSeekframeError(error, { code: 'render-failed' }).toJSON() });
  } finally {
    if (inlineDir) await rm(inlineDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

export function reasonOf(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : reason === undefined ? 'cancelled' : String(reason);
}
