import type { BrowserInfo } from '../browser/browser-info.js';

export type CaptureModeChoice = 'auto' | 'beginframe' | 'screenshot';

export interface CaptureModeDecision {
  mode: 'beginframe' | 'screenshot';
  /** One sentence saying which mode and why; a fallback names the fix. */
  reason: string;
  /** True when `auto` had to settle for the slower screenshot capture. */
  fellBack: boolean;
}

/**
 * `auto` takes beginframe whenever the browser supports HeadlessExperimental.beginFrame (one
 * deterministic paint per frame, and unchanged frames can be skipped); otherwise screenshot,
 * with a reason that says how to get the faster mode. Render and benchmark share this wording.
 */
export function chooseCaptureMode(
  requested: CaptureModeChoice,
  browser: Pick<BrowserInfo, 'path' | 'kind' | 'supportsBeginFrame'>,
): CaptureModeDecision {
  if (requested !== 'auto') {
    return { mode: requested, reason: `${requested}: requested with --capture-mode ${requested}`, fellBack: false };
  }
  if (browser.supportsBeginFrame) {
    return {
      mode: 'beginframe',
      reason: `beginframe: ${browser.path} (${browser.kind}) supports HeadlessExperimental.beginFrame`,
      fellBack: false,
    };
  }
  return {
    mode: 'screenshot',
    reason:
      `screenshot: ${browser.path} (${browser.kind}) does not support HeadlessExperimental.beginFrame, so frames are ` +
      'captured with the slower Page.captureScreenshot; install chromium-headless-shell (apt-get install ' +
      'chromium-headless-shell) or point SEEKFRAME_BROWSER at chrome-headless-shell for beginframe capture',
    fellBack: true,
  };
}
