import type { InspectedClip } from '@seekframe/runtime';
import type { RenderStage } from '../render/render-events.js';
import type { RenderReport } from './render-report.js';

/**
 * Where a render's wall time goes, in the order a local render passes through them. Each is a
 * span of wall time and they do not overlap, so their sum is the render's duration.
 */
export const REPORT_STAGES = ['lint', 'load', 'browser', 'page', 'media', 'audio', 'capture', 'encode', 'verify'] as const;
export type ReportStage = (typeof REPORT_STAGES)[number];

/** The progress stage that opens each report stage (the rest are entered explicitly). */
const FROM_EVENT: Record<RenderStage, ReportStage> = {
  lint: 'lint',
  load: 'load',
  variables: 'load',
  serve: 'browser',
  media: 'page',
  capture: 'capture',
  finish: 'encode',
};

/** What the worker pool measured while capturing (see FramePoolResult). */
export interface CaptureProfile {
  /** First frame of the captured range (0-based, in the whole composition). */
  firstFrame: number;
  /** Milliseconds per frame, seek to encoded image. */
  frameMs: ArrayLike<number>;
  /**
   * CPU milliseconds each frame cost the browser that captured it, where it can be read (Linux):
   * the slowest frames and slow clips are found by this, so another job on the machine does not
   * make a cheap clip look slow or hide a slow one.
   */
  frameCpuMs?: ArrayLike<number>;
  /** Time the capture spent handing frames to ffmpeg (its pipe was full). */
  encoderWaitMs: number;
  /** beginframe: frames Chromium reported unchanged, reused without a new screenshot. */
  reusedFrames: number;
}

export interface Choice<T> {
  value: T;
  requested: string;
  /** One sentence: why this value. */
  reason: string;
}

/**
 * The measurements of one render, filled in as it runs (renderComposition makes one, a host may
 * pass its own in the render context to read it after a failure). Stages are spans of wall time:
 * `enter` closes the current one and opens the next, so the stages always add up to the time
 * between the profile's creation and `stop`.
 */
export class RenderProfile {
  readonly #createdAt = performance.now();
  readonly #totals = new Map<ReportStage, number>();
  #current: { stage: ReportStage; since: number } | undefined;
  #stoppedAt: number | undefined;
  capture: CaptureProfile | undefined;
  workers: Choice<number> | undefined;
  captureMode: Choice<'canvas' | 'beginframe' | 'screenshot'> | undefined;
  /** The video's length and where it came from (the root's data-duration or its registered timeline). */
  length: RenderReport['length'] | undefined;
  /** The render's warning events, in order, for the report. */
  readonly warnings: { code: string; message: string }[] = [];
  /** The composition's clips (from `__seekframe.inspectTimeline()` on the plan step's page). */
  clips: InspectedClip[] = [];
  /** Frames per second of the plan, for frame times. */
  fps: { num: number; den: number } | undefined;

  /** A progress stage event: opens the report stage it maps to. */
  stageEvent(stage: RenderStage): void {
    this.enter(FROM_EVENT[stage]);
  }

  enter(stage: ReportStage): void {
    if (this.#stoppedAt !== undefined) return;
    const now = performance.now();
    if (this.#current) this.#add(this.#current.stage, now - this.#current.since);
    // Set-up before the first stage (parsing options, finding the project) counts towards it.
    else this.#add(stage, now - this.#createdAt);
    this.#current = { stage, since: now };
  }

  /** Ends the current stage; later calls change nothing. */
  stop(): void {
    if (this.#stoppedAt !== undefined) return;
    this.#stoppedAt = performance.now();
    if (this.#current) this.#add(this.#current.stage, this.#stoppedAt - this.#current.since);
    this.#current = undefined;
  }

  /** Milliseconds since the profile was made, up to `stop` once stopped. */
  elapsedMs(): number {
    return (this.#stoppedAt ?? performance.now()) - this.#createdAt;
  }

  /** Every stage that took time, in pipeline order; the one still open counts up to now. */
  stages(): Array<{ stage: ReportStage; ms: number }> {
    const totals = new Map(this.#totals);
    if (this.#current) totals.set(this.#current.stage, (totals.get(this.#current.stage) ?? 0) + performance.now() - this.#current.since);
    return REPORT_STAGES.filter((stage) => totals.has(stage)).map((stage) => ({ stage, ms: totals.get(stage)! }));
  }

  #add(stage: ReportStage, ms: number): void {
    this.#totals.set(stage, (this.#totals.get(stage) ?? 0) + ms);
  }
}
