import type { BrowserInfo, FfmpegInfo } from '@seekframe/engine';
import { lambdaError } from '../errors.js';
import type { PlanFacts } from '../render-core.js';

/**
 * A chunk must be drawn by the binaries the plan was made with: another Chromium rasterises
 * differently, another ffmpeg encodes differently, other fonts shape text differently, and the
 * seams would show. `fonts`: this chunk's font package versions, when the caller looked them up. Both are
 * deterministic failures (never retried). beginFrame must work: mixing capture modes across
 * chunks would change pixels at the seams.
 */
export function checkChunkRuntime(plan: PlanFacts, browser: BrowserInfo, ffmpeg: FfmpegInfo, fonts?: Record<string, string> | null): void {
  if (!browser.supportsBeginFrame) {
    throw lambdaError(
      'beginframe-unsupported',
      `The chunk's Chromium (${browser.path}, ${browser.version}) cannot capture with HeadlessExperimental.beginFrame, which distributed chunks need. ` +
        'Deploy the functions from the render image (infra/lambda/build-image.sh), whose chromium-headless-shell answers beginFrame.',
      { stage: 'browser', details: { path: browser.path, version: browser.version } },
    );
  }
  const mismatches: string[] = [];
  if (browser.version !== plan.versions.chromium) mismatches.push(`Chromium ${browser.version} (plan: ${plan.versions.chromium})`);
  if (ffmpeg.version !== plan.versions.ffmpeg) mismatches.push(`ffmpeg ${ffmpeg.version} (plan: ${plan.versions.ffmpeg})`);
  if (fonts !== undefined && JSON.stringify(fonts) !== JSON.stringify(plan.versions.fonts ?? null))
    mismatches.push(`fonts ${JSON.stringify(fonts)} (plan: ${JSON.stringify(plan.versions.fonts ?? null)})`);
  if (mismatches.length) {
    throw lambdaError(
      'version-mismatch',
      `This chunk runs ${mismatches.join(' and ')}: every chunk must use the plan's binaries or the seams differ. ` +
        'Deploy plan and renderChunk from the same image (sst deploy updates both) and start the render again.',
      { stage: 'browser', details: { chromium: browser.version, ffmpeg: ffmpeg.version, plan: plan.versions } },
    );
  }
}
