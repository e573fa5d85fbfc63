import type { SeekframeErrorData } from '@seekframe/composition';

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
  captureMode: 'beginframe' | 'screenshot';
  hasAudio: boolean;
}
