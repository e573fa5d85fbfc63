import type { BrowserInfo, FfmpegInfo } from '@seekframe/engine';
import { distributedError } from './distributed-error.js';
import type { PlanFacts } from './render-core.js';

/**
 * A chunk must be drawn by the binaries the plan was made with: another Chromium rasterises
 * differently, another ffmpeg encodes differently, other fonts shape text differently, and the
 * seams would show. `fonts`: this chunk's font package versions, when the caller looked them up. Both are
 * deterministic failures (never retried). beginFrame must work: mixing capture modes across
 * chunks would change pixels at the seams.
 */
export interface RuntimeFixes {
  /** What to do when the browser cannot beginFrame (default: run the render image's headless shell). */
  beginFrame?: string;
  /** What to do when binaries differ from the plan's (default: run every machine from one image). */
  versions?: string;
}

const DEFAULT_FIXES: Required<RuntimeFixes> = {
  beginFrame:
    "Run the chunks with a chromium-headless-shell (the render image's, infra/docker), which answers beginFrame, or point SEEKFRAME_BROWSER at one.",
  versions: 'Run the planner and every worker from the same image (or the same Chromium, ffmpeg and fonts) and start the render again.',
};

export function checkChunkRuntime(
  plan: PlanFacts,
  browser: BrowserInfo,
  ffmpeg: FfmpegInfo,
  fonts?: Record<string, string> | null,
  fixes: RuntimeFixes = {},
): void {
  if (!browser.supportsBeginFrame) {
    throw distributedError(
      'beginframe-unsupported',
      `The chunk's Chromium (${browser.path}, ${browser.version}) cannot capture with HeadlessExperimental.beginFrame, which distributed chunks need. ` +
        (fixes.beginFrame ?? DEFAULT_FIXES.beginFrame),
      { stage: 'browser', details: { path: browser.path, version: browser.version } },
    );
  }
  const mismatches: string[] = [];
  if (browser.version !== plan.versions.chromium) mismatches.push(`Chromium ${browser.version} (plan: ${plan.versions.chromium})`);
  if (ffmpeg.version !== plan.versions.ffmpeg) mismatches.push(`ffmpeg ${ffmpeg.version} (plan: ${plan.versions.ffmpeg})`);
  if (fonts !== undefined && JSON.stringify(fonts) !== JSON.stringify(plan.versions.fonts ?? null))
    mismatches.push(`fonts ${JSON.stringify(fonts)} (plan: ${JSON.stringify(plan.versions.fonts ?? null)})`);
  if (mismatches.length) {
    throw distributedError(
      'version-mismatch',
      `This chunk runs ${mismatches.join(' and ')}: every chunk must use the plan's binaries or the seams differ. ` +
        (fixes.versions ?? DEFAULT_FIXES.versions),
      { stage: 'browser', details: { chromium: browser.version, ffmpeg: ffmpeg.version, plan: plan.versions } },
    );
  }
}
