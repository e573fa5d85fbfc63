import type { BrowserInfo, BrowserPool } from '@seekframe/engine';

/**
 * The render-core functions the Lambda handlers call (the plan / frame-range / assembly seams
 * that let one render run split across machines, exported by
 * `@seekframe/producer`). They are injected rather than imported in each handler so the
 * handlers can be driven with a wrapped core in tests (fault injection) and so this adapter
 * depends on the seams' shapes, not on where the producer keeps them.
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

/** The part of the producer's RenderEvent the chunk handler reads (progress); others pass through. */
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
