import { z } from 'zod';
import type { DistributedProgress } from '../progress/aggregate-progress.js';

const FunctionCostSchema = z.object({ invocations: z.number().int(), gbSeconds: z.number(), estimatedUsd: z.number() });

/**
 * What the Lambda runner adds to a render's progress in `GET /api/render/:id` (next to the shared
 * id, status, stage, progress and frames): the distributed step, chunks, the slowest chunk, the
 * timeout warning and the cost estimate. The render API's OpenAPI document describes them from
 * this schema (RenderRunner.progressFields); `satisfies` makes the compiler refuse a schema that
 * no longer describes what aggregate-progress.ts computes.
 */
export const LambdaProgressFieldsSchema = z.object({
  step: z.enum(['plan', 'render', 'assemble', 'done']).describe('The distributed step: plan, render (the chunks), assemble, done.'),
  chunks: z.object({ total: z.number().int().nullable(), done: z.number().int(), retried: z.number().int() }),
  slowestChunkMs: z.number().nullable().describe('Longest chunk so far (finished, or running for this long).'),
  timeoutRisk: z.boolean().describe('A chunk passed 80 % of the function timeout: the next, longer render may time out.'),
  warning: z.string().nullable(),
  failedAttempts: z.number().int().describe('Every failed attempt so far (retried ones included).'),
  cost: z
    .object({
      estimatedUsd: z.number(),
      display: z.string(),
      lambdaGbSeconds: z.number(),
      invocations: z.number().int(),
      sfnTransitions: z.number().int(),
      functions: z.object({ plan: FunctionCostSchema, renderChunk: FunctionCostSchema, assemble: FunctionCostSchema }),
      pricing: z.object({
        region: z.string(),
        usdPerGbSecond: z.number(),
        usdPerRequest: z.number(),
        usdPerTransition: z.number(),
        fallbackFor: z.string().optional(),
      }),
      estimated: z.literal(true),
      excludes: z.tuple([z.literal('s3'), z.literal('data-transfer'), z.literal('logs'), z.literal('free-tier')]),
    })
    .describe('An estimate: Lambda GB-seconds and requests plus Step Functions transitions at list prices.'),
});

export type LambdaProgressFields = z.output<typeof LambdaProgressFieldsSchema>;

/** The runner's fields of a distributed progress. */
export function lambdaProgressFields(progress: DistributedProgress): LambdaProgressFields {
  const { stage: step, chunks, slowestChunkMs, timeoutRisk, warning, failedAttempts, cost } = progress;
  return { step, chunks, slowestChunkMs, timeoutRisk, warning, failedAttempts, cost } satisfies z.input<typeof LambdaProgressFieldsSchema>;
}
