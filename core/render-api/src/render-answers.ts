import { z } from 'zod';
import { JobProgressSchema, RenderJobResultSchema } from './render-job.js';

/**
 * The JSON answers of the render API's routes besides the job's progress (render-job.ts) and the
 * error body (@seekframe/composition's ErrorBodySchema). create-render-api.ts types what it answers
 * with them, and openapi-document.ts describes them, so the document cannot drift from the code.
 */

/** 202 to `POST /api/render` with `Prefer: respond-async`, or a sync render past the platform's time. */
export const RenderAcceptedSchema = z.object({
  id: z.string().describe('The render id.'),
  statusUrl: z.string().describe('Where to poll: `/api/render/<id>` (also in the Location header).'),
});

/** 200 to a synchronous `POST /api/render` (answer mode `sync`): the finished file. */
export const RenderFinishedSchema = RenderJobResultSchema.pick({ url: true, key: true, durationMs: true }).extend({
  id: z.string().describe('The render id.'),
});

/** 200 to `POST /api/render` in answer mode `call-id` (the Modal template): poll `/api/render/<call_id>`. */
export const RenderCallIdSchema = z.object({ call_id: z.string().describe('The render id to poll at `/api/render/<call_id>`.') });

/** 202 to `DELETE /api/render/:id`. */
export const RenderCancelledSchema = z.object({ id: z.string(), status: z.literal('cancelled') });

/** 200 to `GET /api/render/:id` with `Accept: application/json` once the render completed. */
export const CompletedJobSchema = JobProgressSchema.extend({ result: RenderJobResultSchema });

export type RenderAccepted = z.output<typeof RenderAcceptedSchema>;
export type RenderFinished = z.output<typeof RenderFinishedSchema>;
export type RenderCallId = z.output<typeof RenderCallIdSchema>;
export type RenderCancelled = z.output<typeof RenderCancelledSchema>;
export type CompletedJob = z.output<typeof CompletedJobSchema>;
