import type { SeekframeErrorData } from '@seekframe/composition';
import type { RenderVersions } from '../plan/render-plan.js';
import type { RenderReport } from '../report/render-report.js';

/** Pipeline steps, in order, as announced by `{type:'stage'}` events. */
export type RenderStage = 'lint' | 'load' | 'variables' | 'serve' | 'media' | 'capture' | 'finish';

/** Progress events: one object shape for the CLI bar, `--json` lines and the server's SSE stream. */
export type RenderEvent =
  | { type: 'stage'; stage: RenderStage }
  | {
      type: 'progress';
      stage: RenderStage;
      framesRendered: number;
      totalFrames: number;
      /** 0-100 */
      percent: number;
      /** Frames per second achieved so far. */
      fps: number;
      /** Seconds left at the current speed; null until the speed is known. */
      eta: number | null;
    }
  | { type: 'warning'; code: string; message: string; details?: Record<string, unknown> }
  | {
      type: 'complete';
      output: string;
      /** Bytes written (summed over the files of a png-sequence). */
      size: number;
      /** Wall-clock time of the render. */
      durationMs: number;
      /** Length of the video in seconds (frames / fps). */
      videoDuration: number;
      /** Chromium, ffmpeg, fonts and Seekframe that made it (absent from events of older producers). */
      versions?: RenderVersions;
      /** Where the time went (stages, slowest frames, slow clips, workers and capture mode); see RenderReportSchema. */
      report?: RenderReport;
      /** `--captions`: the sidecar written beside the output (as in RenderResult). */
      captions?: RenderCaptions;
      /** `seekframe still` (renderStills): every still asked for, in order; `output` is the first one's file, `size` all of them. */
      stills?: RenderStill[];
    }
  | { type: 'error'; error: SeekframeErrorData };

export type RenderEventListener = (event: RenderEvent) => void;

export interface RenderResult {
  output: string;
  format: string;
  size: number;
  durationMs: number;
  videoDuration: number;
  frames: number;
  fps: { num: number; den: number };
  width: number;
  height: number;
  workers: number;
  captureMode: 'canvas' | 'beginframe' | 'screenshot';
  hasAudio: boolean;
  /** Highest memory of the render's browsers together (RSS of all their processes), in MB: what `--max-memory` bounds. 0 where it cannot be read (not Linux). */
  browserMemoryMB: number;
  /** Chromium, ffmpeg, fonts and Seekframe that made it: compare pixels only between equal versions. */
  versions: RenderVersions;
  /** Where the time went; the same object as the `complete` event's `report`. */
  report: RenderReport;
  /** `--captions`: the sidecar written beside the output. */
  captions?: RenderCaptions;
}

/** One still of `seekframe still`: what was asked (`time` in seconds or `frame`), the frame it shows, and its PNG. */
export interface RenderStill {
  /** As asked: a time in seconds or a frame number. */
  at: { time: number } | { frame: number };
  /** The composition frame (at the render's fps) the PNG is. */
  frame: number;
  /** That frame's time in seconds (a time asked for is moved to it). */
  time: number;
  output: string;
  size: number;
}

/** The .srt/.vtt `--captions` wrote beside the output, its cue count and the variable it came from. */
export interface RenderCaptions {
  file: string;
  cues: number;
  variable: string;
}

/**
 * Batch streams (`renderBatch`, `render --batch --json`). A row's own
 * stage/progress/warning events are the single-render objects plus `row` (its 0-based index);
 * a row's outcome is `batch-row-complete`/`batch-row-failed`/`batch-row-skipped`; the stream
 * ends with `batch-complete`, or with one `error` when the batch could not run at all
 * (e.g. `invalid-batch`, whose details.problems list every bad row).
 */
export type BatchRowStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped';

export interface BatchCounts {
  total: number;
  completed: number;
  failed: number;
  skipped: number;
  /** Of the completed rows, those kept from a previous manifest by resume (not rendered again). */
  resumed: number;
}

export type RowRenderEvent = Extract<RenderEvent, { type: 'stage' | 'progress' | 'warning' }> & { row: number };

export type BatchEvent =
  | { type: 'batch-start'; total: number; concurrency: number; workersPerRow: number; manifest: string }
  | RowRenderEvent
  | { type: 'batch-row-start'; row: number; output: string; variables: Record<string, unknown> }
  | {
      type: 'batch-row-complete';
      row: number;
      output: string;
      size: number | null;
      durationMs: number | null;
      videoDuration: number | null;
      resumed: boolean;
    }
  | { type: 'batch-row-failed'; row: number; output: string; error: SeekframeErrorData }
  | { type: 'batch-row-skipped'; row: number; output: string; reason: 'fail-fast' | 'cancelled' }
  | { type: 'batch-complete'; counts: BatchCounts; manifest: string; durationMs: number; cancelled: boolean }
  | { type: 'warning'; code: string; message: string; details?: Record<string, unknown> }
  | { type: 'error'; error: SeekframeErrorData };

export type BatchEventListener = (event: BatchEvent) => void;
