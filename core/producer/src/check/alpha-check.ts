import path from 'node:path';
import { toSeekframeError } from '@seekframe/composition';
import { FORMAT_EXTENSIONS, type RenderSpec } from '../plan/render-spec.js';
import { CleanupStack } from '../render/cleanup-stack.js';
import { planRenderSession } from '../render/plan-render.js';
import type { RenderContext } from '../render/render-context.js';
import { renderSessionFrames } from '../render/render-frames.js';
import { ProblemLog } from '../serve/problem-log.js';
import type { CheckFinding } from './check-report.js';

/** Frames of the sample render the alpha check encodes. */
const ALPHA_SAMPLE_FRAMES = 5;

/**
 * Renders a few frames from the middle through the render's own path (plan, capture, encoder,
 * and the alpha check that runs before any transparent output is published) into the work folder.
 */
export async function checkAlpha(spec: RenderSpec, context: RenderContext): Promise<{ findings: CheckFinding[]; skipped?: string }> {
  const cleanup = new CleanupStack();
  try {
    const { plan, session } = await planRenderSession(
      { ...spec, workers: 1 },
      { ...context, onEvent: () => undefined, problems: new ProblemLog() },
      cleanup,
      { keepPage: true, signal: context.signal },
    );
    const count = Math.min(plan.totalFrames, ALPHA_SAMPLE_FRAMES);
    const start = Math.max(0, Math.min(plan.totalFrames - count, Math.floor(plan.totalFrames / 2) - Math.floor(count / 2)));
    const target = path.join(
      session.workDir,
      plan.format === 'png-sequence' ? 'alpha-sample' : `alpha-sample${FORMAT_EXTENSIONS[plan.format]}`,
    );
    const result = await renderSessionFrames(
      plan,
      { start, end: start + count },
      { kind: 'output', path: target },
      session,
      context.signal ?? new AbortController().signal,
    );
    const time = { start: (start * plan.fps.den) / plan.fps.num, end: ((start + count) * plan.fps.den) / plan.fps.num };
    const verdict = result.alpha;
    if (verdict?.skipped) {
      return {
        findings: [
          {
            check: 'alpha',
            code: 'alpha/unchecked',
            severity: 'warning',
            message: `The alpha channel could not be checked: ${verdict.skipped}.`,
            element: null,
            time,
            file: null,
            fix: 'Install an ffmpeg built with libvpx (Debian: apt-get install ffmpeg).',
          },
        ],
      };
    }
    if (verdict?.opaqueSource) {
      return {
        findings: [
          {
            check: 'alpha',
            code: 'alpha/opaque',
            severity: 'warning',
            message: `You render ${plan.format}, which keeps transparency, but the page paints every pixel of the sampled frames: the video will be opaque.`,
            element: null,
            time,
            file: null,
            fix: 'Leave the background transparent (no background on html, body and the root; `background: transparent`) where the video should show through, or render mp4.',
            details: { samples: verdict.samples },
          },
        ],
      };
    }
    return { findings: [] };
  } catch (caught) {
    const error = toSeekframeError(caught, { code: 'render-failed' });
    if (error.code !== 'alpha-lost') return { findings: [], skipped: `the sample render failed (${error.code}): ${error.message}` };
    return {
      findings: [
        {
          check: 'alpha',
          code: 'alpha/lost',
          severity: 'error',
          message: error.message.replace(/ The output was not written\.$/, ''),
          element: null,
          time: typeof error.details?.time === 'number' ? { start: error.details.time, end: error.details.time } : null,
          file: null,
          fix: "A render fails the same way (alpha-lost): check that this ffmpeg's encoder writes alpha (`seekframe doctor`), or render png-sequence.",
          details: { ...(error.details ?? {}) },
        },
      ],
    };
  } finally {
    await cleanup.run();
  }
}
