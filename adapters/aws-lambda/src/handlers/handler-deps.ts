import type { DistributedDeps, DistributedStore } from '@seekframe/producer/distributed';
import type { LambdaWebhooks } from '../webhooks/render-webhook-events.js';

export type { StoredPlan } from '@seekframe/producer/distributed';

/** What every step handler needs: the core's distributed deps plus Lambda's billing and webhooks; lambda-entry.ts fills it from the environment. */
export interface HandlerDeps extends DistributedDeps {
  store: DistributedStore;
  /** The function's memory, for the cost estimate. */
  memoryMb: number;
  /** Signed webhooks (RENDER_WEBHOOK_SECRET); without it no events are sent. */
  webhooks?: LambdaWebhooks;
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
