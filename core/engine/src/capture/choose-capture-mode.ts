import type { BrowserInfo } from '../browser/browser-info.js';
import type { CaptureMode } from '../browser/browser-flags.js';

export type CaptureModeChoice = 'auto' | CaptureMode;

export interface CaptureModeDecision {
  mode: CaptureMode;
  /** One sentence saying which mode and why; a fallback names the fix. */
  reason: string;
  /** True when `auto` had to settle for the slower screenshot capture. */
  fellBack: boolean;
}

/**
 * What about the render itself rules canvas capture out, whatever the browser can do. Alpha
 * output, --scale and the network sandbox no longer do: canvas capture keeps the page's alpha
 * (straight, as PNG has it), paints at the device scale factor and reaches its frame receiver
 * through the sandbox's one tunnel.
 */
export interface CaptureNeeds {
  /** false: a caller that does not look for canvas blockers (canvas-blockers.ts) never gets canvas from auto. */
  allowCanvas?: boolean;
}

/**
 * `auto` takes the fastest mode that gives exact frames: canvas (HTML-in-canvas, frames without
 * an image codec) when the browser has it and the render allows it, else beginframe whenever the
 * browser supports HeadlessExperimental.beginFrame (one deterministic paint per frame, unchanged
 * frames skipped), else screenshot, with a reason that says how to get the faster mode. A page
 * that canvas capture cannot draw is found later, once it is loaded (canvas-blockers.ts), and
 * moves that render to beginframe. Render, check and benchmark share this wording.
 */
export function chooseCaptureMode(
  requested: CaptureModeChoice,
  browser: Pick<BrowserInfo, 'path' | 'kind' | 'supportsBeginFrame' | 'supportsCanvasCapture'>,
  needs: CaptureNeeds = {},
): CaptureModeDecision {
  if (requested !== 'auto') {
    const unusable = requested === 'canvas' ? canvasObstacle(browser, needs) : undefined;
    if (unusable && browser.supportsBeginFrame) {
      return { mode: 'beginframe', reason: `beginframe: --capture-mode canvas requested, but ${unusable}`, fellBack: false };
    }
    return { mode: requested, reason: `${requested}: requested with --capture-mode ${requested}`, fellBack: false };
  }
  if (browser.supportsBeginFrame) {
    const unusable = canvasObstacle(browser, needs);
    if (!unusable) {
      return {
        mode: 'canvas',
        reason: `canvas: ${browser.path} (${browser.kind}) draws the page into a canvas (drawElementImage), so frames reach ffmpeg as raw pixels, without a screenshot or JPEG`,
        fellBack: false,
      };
    }
    return {
      mode: 'beginframe',
      reason: `beginframe: ${browser.path} (${browser.kind}) supports HeadlessExperimental.beginFrame; canvas capture is not used because ${unusable}`,
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

/** Why canvas capture cannot serve this render, or undefined when it can. */
function canvasObstacle(
  browser: Pick<BrowserInfo, 'supportsCanvasCapture' | 'supportsBeginFrame'>,
  needs: CaptureNeeds,
): string | undefined {
  if (!browser.supportsBeginFrame || !browser.supportsCanvasCapture) return 'this browser has no HTML-in-canvas (drawElementImage)';
  if (needs.allowCanvas === false) return 'this caller captures the page as it is, without looking for what canvas capture cannot draw';
  return undefined;
}
