import { z } from 'zod';
import { SeekframeErrorDataSchema } from '@seekframe/composition';
import { WebhookAttemptSchema } from '@seekframe/producer/webhooks';
import type { DistributedProgress } from '../progress/aggregate-progress.js';

/**
 * The JSON the Lambda API answers, as zod schemas for its OpenAPI document (openapi-document.ts).
 * The types stay where the code computes them (aggregate-progress.ts, cost.ts); `satisfies` makes
 * the compiler refuse a schema that no longer describes them.
 */

const FunctionCostSchema = z.object({ invocations: z.number().int(), gbSeconds: z.number(), estimatedUsd: z.number() });

export const DistributedProgressSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
  stage: z.enum(['plan', 'render', 'assemble', 'done']),
  progress: z.number().min(0).max(1).describe('0..1: plan 0-0.05, frames 0.05-0.9, assembly 0.9-1.'),
  framesRendered: z.number().int(),
  totalFrames: z.number().int().nullable(),
  chunks: z.object({ total: z.number().int().nullable(), done: z.number().int(), retried: z.number().int() }),
  slowestChunkMs: z.number().nullable().describe('Longest chunk so far (finished, or running for this long).'),
  timeoutRisk: z.boolean().describe('A chunk passed 80 % of the function timeout: the next, longer render may time out.'),
  warning: z.string().nullable(),
  output: z.object({ key: z.string(), size: z.number().int(), frames: z.number().int(), url: z.string().optional().describe('A presigned URL of the file.') }).nullable(),
  error: SeekframeErrorDataSchema.nullable(),
  failedAttempts: z.number().int().describe('Every failed attempt so far (retried ones included).'),
  cost: z
    .object({
      estimatedUsd: z.number(),
      display: z.string(),
      lambdaGbSeconds: z.number(),
      invocations: z.number().int(),
      sfnTransitions: z.number().int(),
      functions: z.object({ plan: FunctionCostSchema, renderChunk: FunctionCostSchema, assemble: FunctionCostSchema }),
      pricing: z.object({ region: z.string(), usdPerGbSecond: z.number(), usdPerRequest: z.number(), usdPerTransition: z.number(), fallbackFor: z.string().optional() }),
      estimated: z.literal(true),
      excludes: z.tuple([z.literal('s3'), z.literal('data-transfer'), z.literal('logs'), z.literal('free-tier')]),
    })
    .describe('An estimate: Lambda GB-seconds and requests plus Step Functions transitions at list prices.'),
  webhook: z.object({ url: z.string(), attempts: z.array(WebhookAttemptSchema) }).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
}) satisfies z.ZodType<DistributedProgress>;

export const LambdaRenderStartedSchema = z.object({ id: z.string(), status: z.literal('queued'), statusUrl: z.string() });
export const LambdaRenderCancelledSchema = z.object({ id: z.string(), status: z.literal('cancelled') });
