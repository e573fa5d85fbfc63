import { SeekframeError } from '@seekframe/composition';
import type { CaptureMode, CaptureModeDecision } from '@seekframe/engine';
import type { RenderPlan } from '../plan/render-plan.js';

/** mov, webm and png-sequence keep the page's transparency (PNG frames); the others (mp4, gif, hls) are opaque. */
export function isTransparent(format: RenderPlan['format']): boolean {
  return format === 'mov' || format === 'webm' || format === 'png-sequence';
}

/** The decision after the page showed something canvas capture cannot draw. */
export function canvasFallback(what: string): CaptureModeDecision {
  return { mode: 'beginframe', reason: `beginframe: canvas capture cannot draw this composition (${what})`, fellBack: false };
}

/** Refuses a capture mode the browser cannot do, saying what to install or pass instead. */
export function assertCaptureMode(
  mode: CaptureMode,
  browser: { path: string; supportsBeginFrame: boolean; supportsCanvasCapture?: boolean },
): void {
  if (mode === 'canvas' && !browser.supportsCanvasCapture) {
    throw new SeekframeError(
      'capture-mode-unsupported',
      `--capture-mode canvas needs a browser with HTML-in-canvas (drawElementImage, Chromium 156 or later with beginFrame control), and ${browser.path} does not have it. ` +
        'Install chromium-headless-shell 156 or later, or use --capture-mode auto.',
      { stage: 'browser', details: { browser: browser.path } },
    );
  }
  if (mode !== 'screenshot' && !browser.supportsBeginFrame) {
    throw new SeekframeError(
      'capture-mode-unsupported',
      `--capture-mode beginframe needs a browser that supports HeadlessExperimental.beginFrame, and ${browser.path} does not. ` +
        'Install chrome-headless-shell (or chromium-headless-shell), or use --capture-mode screenshot.',
      { stage: 'browser', details: { browser: browser.path } },
    );
  }
}
