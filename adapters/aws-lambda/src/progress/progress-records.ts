import type { SeekframeErrorData } from '@seekframe/composition';
import type { JobStatus, RenderBody } from '@seekframe/producer/http';

/**
 * The small JSON objects the handlers write under `renders/<id>/` and `GET /api/render/:id`
 * reads back. They, not Step Functions' history, are the source of progress and cost, so the
 * same code runs against a local S3 server.
 */
export type RenderStatus = JobStatus;

/** `request.json`: what POST /api/render accepted, plus the chunking settings of the deployment. */
export interface StoredRequest {
  id: string;
  createdAt: string;
  request: RenderRequestBody;
  chunking: { maxConcurrency?: number; accountConcurrency?: number; chunkCount?: number; framesPerChunk?: number };
  /** The function timeout of renderChunk in seconds (progress warns when a chunk nears it). */
  chunkTimeoutSeconds: number;
  /**
   * The deployment's frame cap (RENDER_MAX_FRAMES), checked by the plan step like any render's
   * limits: a start by direct invoke names no composition the API could check it against.
   */
  limits?: { maxFrames: number };
}

/**
 * The render API's body as it was accepted (RenderBody: `frames` already a span), less `html`: a
 * Lambda deployment renders its own project only. Its `frames` are the plan's, so chunks and
 * assembly count the span's frames; its `webhook` events are sent by the step functions.
 */
export type RenderRequestBody = Omit<RenderBody, 'html' | 'variables'> & { variables?: Record<string, unknown> };

/** One invocation's bill: what it ran on and for how long. */
export interface InvocationCost {
  memoryMb: number;
  durationMs: number;
}

export interface PlanProgress extends InvocationCost {
  step: 'plan';
  done: true;
  planHash: string;
  totalFrames: number;
  chunks: number;
  concurrency: number;
  finishedAt: string;
}

export interface ChunkProgress extends InvocationCost {
  step: 'chunk';
  chunk: number;
  attempt: number;
  frames: number;
  framesRendered: number;
  done: boolean;
  startedAt: string;
  updatedAt: string;
}

export interface AssembleProgress extends InvocationCost {
  step: 'assemble';
  done: boolean;
  startedAt: string;
  updatedAt: string;
}

/** `errors/<step>-<attempt>.json`: one failed attempt (retried or not). */
export interface AttemptError extends InvocationCost {
  step: string;
  attempt: number;
  kind: string;
  error: SeekframeErrorData;
  at: string;
}

/** `status.json`: written by assemble (completed), the fail handler (failed) or DELETE (cancelled). */
export interface FinalStatus {
  status: 'completed' | 'failed' | 'cancelled';
  finishedAt: string;
  output?: { key: string; size: number; frames: number };
  error?: SeekframeErrorData;
}
