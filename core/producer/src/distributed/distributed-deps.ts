import type { BrowserPool } from '@seekframe/engine';
import type { DistributedStore } from './distributed-store.js';
import type { FrameChunk } from './plan-chunks.js';
import type { PlanFacts, RenderCore } from './render-core.js';
import type { RenderRuntime } from './render-runtime.js';

/** What every distributed step needs: the store, the render core, the binaries and a scratch folder. */
export interface DistributedDeps {
  store: DistributedStore;
  core: RenderCore<unknown, PlanFacts>;
  runtime: RenderRuntime;
  /** Local scratch space (Lambda: /tmp). One render's files live in `<workRoot>/render-<renderId>/`. */
  workRoot: string;
  now?: () => number;
  /** Remove other renders' scratch folders first (Lambda: one invocation per instance at a time). */
  sweepOtherRenders?: boolean;
  /** Passed to every core call (the runtime bundle when it is not in node_modules). */
  runtimeSource?: () => Promise<string>;
  /**
   * Browsers kept between the chunks one process renders (a warm Lambda instance, a fleet
   * worker): a chunk leases a warm browser in a fresh browser context instead of paying
   * Chromium's start again. Without it every chunk starts its own browser.
   */
  browsers?: BrowserPool;
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
