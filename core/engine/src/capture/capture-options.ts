import { SeekframeError } from '@seekframe/composition';
import type { CaptureMode } from '../browser/browser-flags.js';
import type { BrowserSession } from '../browser/launch-browser.js';
import type { CanvasPixels } from './canvas-capture.js';

/** What openCapturePage opens: the page, its size, how it is captured and the bounds of its waits. */
export interface CapturePageOptions {
  url: string;
  /** The viewport in CSS pixels; the captured image is this times `scale`. */
  width: number;
  height: number;
  /**
   * Device scale factor (default 1): the page lays out at width x height CSS pixels and paints
   * scale x as many device pixels, so text and vector shapes are drawn at the output size.
   */
  scale?: number;
  mode: CaptureMode;
  imageFormat: 'jpeg' | 'png';
  /** 0-100, JPEG only (default 90). */
  jpegQuality?: number;
  /** Transparent page background (PNG only): for mov, webm and png-sequence. */
  transparent: boolean;
  readyTimeoutMs: number;
  /** Longest a single seek may take before the render fails (default 30 s). */
  seekTimeoutMs?: number;
  /** Fail a frame when `__seekframe.errors()` reports author-script errors (default true). */
  failOnScriptErrors?: boolean;
  /**
   * beginframe and canvas (default true): when Chromium reports no damage (beginframe) or no
   * repaint of the composition (canvas) since the frame it last drew, hand back that frame
   * instead of drawing and capturing it again. See begin-frame-capture.ts and canvas-capture.ts.
   */
  skipUnchangedFrames?: boolean;
  /** canvas mode: the pixels handed over (default bgra); see canvasPixelsFor. */
  canvasPixels?: CanvasPixels;
  /** Aborting ends every wait on the page at once (`cancelled`, or the signal's SeekframeError reason). */
  signal?: AbortSignal;
}

/** Refuses options that cannot work together, before a page is opened. */
export function checkCaptureOptions(session: BrowserSession, opts: CapturePageOptions): void {
  if (opts.transparent && opts.imageFormat === 'jpeg') {
    throw new SeekframeError('invalid-options', 'A transparent capture needs imageFormat "png": JPEG has no alpha channel.', {
      stage: 'capture',
      details: { field: 'imageFormat' },
    });
  }
  if (opts.mode === 'canvas' && opts.transparent && (opts.canvasPixels ?? 'bgra') !== 'bgra') {
    throw new SeekframeError('invalid-options', 'A transparent canvas capture needs canvasPixels "bgra": I420 has no alpha plane.', {
      stage: 'capture',
      details: { field: 'canvasPixels' },
    });
  }
  if (opts.mode !== session.mode) {
    throw new SeekframeError(
      'invalid-options',
      `openCapturePage mode "${opts.mode}" does not match the browser launched in "${session.mode}" mode; launch one browser per mode.`,
      { stage: 'capture', details: { field: 'mode' } },
    );
  }
}

/** Bytes of one canvas capture frame: I420 (1.5 a pixel) or BGRA (4). */
export function canvasFrameBytes(opts: CapturePageOptions): number {
  const scale = opts.scale ?? 1;
  const pixels = Math.round(opts.width * scale) * Math.round(opts.height * scale);
  return (opts.canvasPixels ?? 'bgra') === 'i420' ? (pixels * 3) / 2 : pixels * 4;
}
