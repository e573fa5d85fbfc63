import {
  canvasPixelsFor,
  describeCanvasBlockers,
  findCanvasBlockers,
  startPoolWorker,
  type CaptureMode,
  type CaptureModeDecision,
  type WorkerLaunch,
} from '@seekframe/engine';
import type { CompositionMetadata } from '@seekframe/composition';
import type { RenderSpec } from '../plan/render-spec.js';
import { captureOptions } from './capture-and-encode.js';
import { canvasFallback } from './capture-mode-rules.js';
import type { CleanupStack } from './cleanup-stack.js';
import { openMediaPage } from './open-media-page.js';
import type { RenderSession } from './render-session.js';

export type OpenedMediaPage = Awaited<ReturnType<typeof openMediaPage>>;

export interface PlanningPages {
  /** The capture mode after the page was seen (canvas may have fallen back to beginframe). */
  decision: CaptureModeDecision;
  /** The page the media stage reads (clips, length, warnings). */
  opened: OpenedMediaPage;
  /** Workers 1..N-1, starting beside it. */
  early: WorkerLaunch[];
}

/**
 * The media stage's page, in the capture mode chosen, with the other workers' browsers starting
 * beside it (on 2 cores a browser start is ~1 s in which capture would otherwise wait). What canvas
 * capture would draw wrong is only known once the page has run its scripts: then the pages are
 * opened again for beginframe, with a warning naming what blocked it.
 */
export async function openPlanningPages(input: {
  spec: RenderSpec;
  metadata: CompositionMetadata;
  session: RenderSession;
  decision: CaptureModeDecision;
  transparent: boolean;
  /** Workers the render will run (1 = no early workers). */
  workers: number;
  cleanup: CleanupStack;
  signal: AbortSignal | undefined;
  warn: (code: string, message: string, details?: Record<string, unknown>) => void;
}): Promise<PlanningPages> {
  const { spec, metadata, session, cleanup } = input;
  const openPages = async (mode: CaptureMode): Promise<Omit<PlanningPages, 'decision'>> => {
    const page = {
      url: session.server.entryUrl,
      width: metadata.width,
      height: metadata.height,
      scale: spec.scale,
      mode,
      canvasPixels: canvasPixelsFor({
        yuv420: spec.format === 'mp4' || spec.format === 'hls',
        width: Math.round(metadata.width * (spec.scale ?? 1)),
        height: Math.round(metadata.height * (spec.scale ?? 1)),
      }),
      readyTimeoutMs: spec.readyTimeoutMs,
      seekTimeoutMs: spec.seekTimeoutMs,
    };
    const pageOptions = { ...captureOptions(page, input.transparent, session.tuning), ...(input.signal ? { signal: input.signal } : {}) };
    const early = Array.from({ length: input.workers - 1 }, () =>
      startPoolWorker({ browser: session.browser, mode, gpu: spec.browserGpu, page: pageOptions, pool: session.browserPool }),
    );
    // Owned by the pool once capture starts; this covers a failure before that (cancel is idempotent).
    cleanup.add(() => Promise.all(early.map((launch) => launch.cancel())));
    const opened = await openMediaPage({ browser: session.browser, page: pageOptions, gpu: spec.browserGpu, pool: session.browserPool });
    // Closed by the pool once capture starts; this covers a failure before that (close is idempotent).
    cleanup.add(() => opened.worker.close());
    return { opened, early };
  };
  const first = await openPages(input.decision.mode);
  if (input.decision.mode !== 'canvas') return { decision: input.decision, ...first };
  const blockers = await findCanvasBlockers(first.opened.worker.page);
  if (blockers.length === 0) return { decision: input.decision, ...first };
  const what = describeCanvasBlockers(blockers);
  input.warn('canvas-capture-blocked', `Capturing with beginframe instead of canvas: this composition has ${what}.`, { blockers });
  await Promise.all([first.opened.worker.close(), ...first.early.map((launch) => launch.cancel())]);
  const decision = canvasFallback(what);
  return { decision, ...(await openPages(decision.mode)) };
}
