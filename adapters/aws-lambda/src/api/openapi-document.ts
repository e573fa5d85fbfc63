import { z } from 'zod';
import { createDocument, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { ErrorBodySchema } from '@seekframe/composition';
import { DistributedProgressSchema, LambdaRenderCancelledSchema, LambdaRenderStartedSchema } from './api-answers.js';
import { RenderBodySchema } from '@seekframe/producer/http';

/** Where the API function serves the document, without a token (it describes the API, it holds no data). */
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Error answers of a route by HTTP status, from the API's own code -> status table (api-app.ts
 * passes its `statusOf`), so a code is documented with the status it answers.
 */
function errors(codes: string[], statusOf: (code: string) => number): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].sort(([a], [b]) => a - b).map(([status, list]) => [String(status), { description: `Error: \`${list.join('`, `')}\`.`, content: { 'application/json': { schema: ErrorBodySchema } } }]),
  );
}

const IdParam = z.object({ id: z.string().describe('The render id POST /api/render answered (8-64 lowercase letters, digits and dashes).') });

/**
 * The Lambda API function's routes (api-app.ts) as an OpenAPI 3.1 document, made from the zod
 * schemas it checks bodies with and answers with (zod-openapi). It differs from the deploy
 * templates' render API: every start is asynchronous (202), the progress carries chunks and cost.
 * openapi-document.test.ts compares its routes with the Hono app's.
 */
export function lambdaApiDocument(statusOf: (code: string) => number): ReturnType<typeof createDocument> {
  const security: Record<string, string[]>[] = [{ bearerAuth: [] }, {}];
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Seekframe Lambda render API',
        version: '1',
        description:
          'The API function of a `seekframe lambda` deployment: start a distributed render of an uploaded project, poll its progress and cost, cancel it. ' +
          'When the deployment has a token every route but this document needs `Authorization: Bearer <token>`. Errors are `{"error": {code, message, stage?, retryable, details?}}`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
        schemas: { RenderBody: RenderBodySchema, RenderStarted: LambdaRenderStartedSchema, DistributedProgress: DistributedProgressSchema, RenderCancelled: LambdaRenderCancelledSchema, ErrorBody: ErrorBodySchema },
      },
      paths: {
        [OPENAPI_PATH]: {
          get: { summary: 'This document', security: [], responses: { '200': { description: 'The OpenAPI document.', content: { 'application/json': { schema: z.object({ openapi: z.string() }).loose() } } } } },
        },
        '/api/render': {
          post: {
            summary: 'Start a distributed render',
            description: '`html` is refused (403 custom-html-disabled): a Lambda deployment renders uploaded projects. An `Idempotency-Key` makes a retry the same render.',
            security,
            requestParams: { header: z.object({ 'idempotency-key': z.string().optional() }) },
            requestBody: { required: false, content: { 'application/json': { schema: RenderBodySchema } } },
            responses: {
              '202': { description: 'Started: poll `statusUrl`.', headers: z.object({ location: z.string() }), content: { 'application/json': { schema: LambdaRenderStartedSchema } } },
              ...errors(['invalid-json', 'invalid-body', 'invalid-variables', 'webhook-secret-missing', 'unauthorized', 'custom-html-disabled', 'idempotency-conflict', 'body-too-large', 'variables-too-large', 'internal-error'], statusOf),
            },
          },
        },
        '/api/render/{id}': {
          get: {
            summary: 'Progress and cost, then the file',
            description: '202 while it runs; completed: a 302 to a presigned URL of the file, or with `Accept: application/json` 200 with `output.url`.',
            security,
            requestParams: { path: IdParam },
            responses: {
              '200': { description: 'Completed (`Accept: application/json`).', content: { 'application/json': { schema: DistributedProgressSchema } } },
              '202': { description: 'Queued or running.', headers: z.object({ 'retry-after': z.string() }), content: { 'application/json': { schema: DistributedProgressSchema } } },
              '302': { description: 'Completed: the file at a presigned URL.', headers: z.object({ location: z.string() }) },
              ...errors(['unauthorized', 'render-not-found', 'render-cancelled', 'internal-error'], statusOf),
            },
          },
          delete: {
            summary: 'Cancel a render',
            security,
            requestParams: { path: IdParam },
            responses: { '202': { description: 'Cancelled.', content: { 'application/json': { schema: LambdaRenderCancelledSchema } } }, ...errors(['unauthorized', 'render-not-found', 'render-not-running'], statusOf) },
          },
        },
      },
    },
    { override: relaxAnswers },
  );
}

/** Answers may gain fields; zod's safe-integer bounds on `.int()` say nothing a JSON integer does not. */
function relaxAnswers({ jsonSchema, io }: { jsonSchema: Record<string, unknown>; io: 'input' | 'output' }): void {
  if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}
