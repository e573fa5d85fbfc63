import type { BrowserInfo, BrowserPool } from '@seekframe/engine';

/**
 * The render-core functions the distributed steps call (the plan / frame-range / assembly seams
 * that let one render run split across machines). They are injected rather than imported in
 * each step so a test can drive the steps with a wrapped core (fault injection), on Lambda and
 * on a fleet alike; `producerCore` is the real one.
 */

/** What the handlers read from a plan; the real `RenderPlan` has more and is stored whole. */
export interface PlanFacts {
  version: 1;
  hash: string;
  width: number;
  height: number;
  fps: { num: number; den: number };
  totalFrames: number;
  format: string;
  versions: { seekframe: string; chromium: string; ffmpeg: string; fonts?: Record<string, string> | null };
}

export interface CoreContext {
  signal?: AbortSignal;
  onEvent?: (event: CoreEvent) => void;
  browser?: BrowserInfo | (() => Promise<BrowserInfo>);
  ffmpeg?: { ffmpeg: string; ffprobe: string };
  network?: 'open' | 'sandboxed';
  workDir?: string;
  /** The page runtime bundle's text (Lambda: copied next to the handler; default: from node_modules). */
  runtimeSource?: string | (() => Promise<string>);
  /** Warm browsers to lease instead of starting one (each render gets a fresh browser context). */
  browsers?: BrowserPool;
}

/** The part of the producer's RenderEvent the chunk step reads (progress); others pass through. */
export type CoreEvent = { type: string; framesRendered?: number; totalFrames?: number; [key: string]: unknown };

export interface RenderCore<Spec = unknown, Plan extends PlanFacts = PlanFacts> {
  parseRenderSpec(input: unknown, source?: string): Spec;
  planRender(spec: Spec, context?: CoreContext): Promise<Plan>;
  renderFrames(
    plan: Plan,
    range: { start: number; end: number },
    target: { kind: 'segment'; path: string },
    context: CoreContext & { projectDir: string },
  ): Promise<{ frames: number; output: string; size: number }>;
  mixPlanAudio(plan: Plan, output: string, context: CoreContext & { projectDir: string }): Promise<string | null>;
  assembleSegments(
    plan: Plan,
    pieces: string[],
    audio: string | null,
    output: string,
    context?: CoreContext,
  ): Promise<{ output: string; frames: number; size: number }>;
}
