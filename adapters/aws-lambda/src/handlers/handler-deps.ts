import type { BrowserPool } from '@seekframe/engine';
import type { RenderCore, PlanFacts } from '../render-core.js';
import type { RenderRuntime } from '../runtime/lambda-runtime.js';
import type { LambdaStore } from '../storage/lambda-store.js';
import type { FrameChunk } from '../chunks/plan-chunks.js';
import type { LambdaWebhooks } from '../webhooks/render-webhook-events.js';

/** What every step handler needs; lambda-entry.ts fills it from the environment. */
export interface HandlerDeps {
  store: LambdaStore;
  core: RenderCore<unknown, PlanFacts>;
  runtime: RenderRuntime;
  /** Local scratch space (Lambda: /tmp). One render's files live in `<workRoot>/<renderId>/`. */
  workRoot: string;
  /** The function's memory, for the cost estimate. */
  memoryMb: number;
  now?: () => number;
  /** Remove other renders' scratch folders first (Lambda: one invocation per instance at a time). */
  sweepOtherRenders?: boolean;
  /** Passed to every core call (the runtime bundle when it is not in node_modules). */
  runtimeSource?: () => Promise<string>;
  /**
   * Browsers kept between the chunks one instance renders (a warm Lambda runs one invocation at a
   * time and keeps its module state): a chunk leases the warm browser in a fresh browser context
   * instead of paying Chromium's start again. Without it every chunk starts its own browser.
   */
  browsers?: BrowserPool;
  /** Signed webhooks (RENDER_WEBHOOK_SECRET); without it no events are sent. */
  webhooks?: LambdaWebhooks;
}

/** `plan.json`: the render plan exactly as planRender returned it, and how it is split. */
export interface StoredPlan {
  plan: PlanFacts & Record<string, unknown>;
  chunks: FrameChunk[];
  concurrency: number;
  /** Whether `audio.m4a` exists (the plan's audio, mixed once). */
  audio: boolean;
  createdAt: string;
}

export interface PlanOutput {
  renderId: string;
  planHash: string;
  chunkCount: number;
  /** Map items: just the index; each chunk reads its range from plan.json. */
  chunks: { index: number }[];
}

export interface ChunkOutput {
  renderId: string;
  chunk: number;
  frames: number;
  durationMs: number;
}

export interface AssembleOutput {
  renderId: string;
  output: { key: string; size: number; frames: number };
}
