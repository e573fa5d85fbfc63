import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponseObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { ErrorBodySchema, type ErrorCode } from '@seekframe/composition';
import { WebhookAttemptSchema } from '@seekframe/producer/webhooks';
import { statusOf } from './api-error.js';
import { CompositionInfoSchema } from './load-composition.js';
import { webhookOperations } from './openapi-webhooks.js';
import { RenderBodySchema } from './parse-render-body.js';
import type { AnswerMode } from './render-api-options.js';
import {
  CompletedJobSchema,
  RenderAcceptedSchema,
  RenderCallIdSchema,
  RenderCancelledSchema,
  RenderFinishedSchema,
} from './render-answers.js';
import { JobProgressSchema, RenderJobResultSchema } from './render-job.js';

/** Where every face serves the document (without a token: it describes the API, it holds no data). */
export const OPENAPI_PATH = '/api/openapi.json';

export interface RenderApiDocumentOptions {
  /** How `POST /api/render` answers without `Prefer: respond-async` (RenderApiOptions.answerMode). */
  answerMode: AnswerMode;
  /** `GET|HEAD /renders/:name` is mounted (RenderApiOptions.serveRendersRoute; default: call-id mode). */
  serveRenders?: boolean;
  /** The runner's own progress fields (RenderRunner.progressFields), answered next to the shared ones. */
  progressFields?: z.ZodObject | undefined;
  /** The deployment bounds `variables` (limits.maxVariablesBytes): 413 `variables-too-large` is documented. */
  variablesLimit?: boolean;
  /** The document's title; default "Seekframe render API". */
  title?: string;
}

/** The media types a finished render is answered with (RENDER_FORMATS, and a `still`'s PNG). */
const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime', 'image/gif', 'image/png'] as const;
/** Codes any route may answer: a request too large to read, a broken deployment. */
const ANY_ROUTE: ErrorCode[] = ['url-too-long', 'headers-too-large', 'internal-error'];
/** Codes any token-guarded route may answer. */
const API_ROUTE: ErrorCode[] = ['unauthorized', ...ANY_ROUTE];

const RequestIdHeader = z
  .string()
  .describe('The request id: the `x-request-id` the client sent (1-128 of `A-Z a-z 0-9 . _ : -`), else a new one.');
const RetryAfterHeader = z.string().describe('Seconds to wait before asking again.');
const LocationHeader = z.string().describe('The status URL, `/api/render/<id>`.');
const IdParam = z.object({ id: z.string().describe('The render id that POST /api/render answered.') });
const VideoFile = z.string().meta({ format: 'binary', description: 'The file; `Range: bytes=` is honoured (206).' });

/**
 * Error answers of a route, one entry per HTTP status, from the API's own code -> status table
 * (api-error.ts), so a code is documented with the status the code answers.
 */
function errors(codes: ErrorCode[], renderFailure = false): ZodOpenApiResponsesObject {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(statusOf(code), [...(byStatus.get(statusOf(code)) ?? []), code]);
  const responses: ZodOpenApiResponsesObject = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const failure =
      status === 500 && renderFailure
        ? ' The render itself failed: any code the pipeline raises (e.g. render-failed, capture-timeout, ffmpeg-exited).'
        : '';
    responses[String(status) as '400'] = {
      description: `Error: \`${list.join('`, `')}\`.${failure}`,
      headers: z.object({ 'x-request-id': RequestIdHeader }),
      content: { 'application/json': { schema: ErrorBodySchema } },
    };
  }
  return responses;
}

function json(description: string, schema: z.ZodType, headers?: z.ZodObject): ZodOpenApiResponseObject {
  return {
    description,
    headers: z.object({ 'x-request-id': RequestIdHeader, ...headers?.shape }),
    content: { 'application/json': { schema } },
  };
}

/** `/preview/*` and `/`: public, no token (the page asks for one when the API answers 401). */
function previewOperation(summary: string, description: string, content: Record<string, { schema: z.ZodType }>): ZodOpenApiOperationObject {
  return {
    tags: ['preview'],
    summary,
    description,
    security: [],
    responses: {
      '200': { description: 'OK', headers: z.object({ 'content-security-policy': z.string() }), content },
      ...errors(['not-found', ...ANY_ROUTE]),
    },
  };
}

/**
 * The render API as an OpenAPI 3.1 document, made from the zod schemas the routes validate and
 * answer with (zod-openapi: zod 4's own JSON Schema conversion, wrapped in OpenAPI objects).
 * Every route createRenderApi mounts has an entry; openapi-document.test.ts compares the list with
 * the Hono app's routes, so a new route without one fails.
 */
export function renderApiDocument(options: RenderApiDocumentOptions): ReturnType<typeof createDocument> {
  const serveRenders = options.serveRenders ?? options.answerMode === 'call-id';
  const progress = options.progressFields ? JobProgressSchema.extend(options.progressFields.shape) : JobProgressSchema;
  const completed = options.progressFields ? progress.extend({ result: RenderJobResultSchema }) : CompletedJobSchema;
  // Answer mode `async` has no 200: every start answers 202.
  const syncAnswer: ZodOpenApiResponsesObject =
    options.answerMode === 'async'
      ? {}
      : {
          '200':
            options.answerMode === 'call-id'
              ? json(
                  'Started (answer mode `call-id`): poll `GET /api/render/{call_id}`.',
                  RenderCallIdSchema,
                  z.object({ location: LocationHeader }),
                )
              : json('Rendered (answer mode `sync`): the request waited for the render; `url` is where the file is.', RenderFinishedSchema),
        };
  const accepted =
    options.answerMode === 'async'
      ? 'Accepted (answer mode `async`: every start answers so): poll `statusUrl`.'
      : "Accepted: poll `statusUrl` (with `Prefer: respond-async`, or a synchronous render that outlasted the platform's request time).";
  // The token is the deployment's choice: either a bearer token, or nothing when none is set.
  const security: Record<string, string[]>[] = [{ bearerAuth: [] }, {}];

  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: options.title ?? 'Seekframe render API',
        version: '1',
        description:
          "The render API every Seekframe deploy template serves: start a render of the deployment's composition with variables, poll it, cancel it, download the file. " +
          'When the deployment sets RENDER_API_TOKEN every `/api/*` route (and `/renders/*`) needs `Authorization: Bearer <token>`; this document, the preview page and its files need none. ' +
          'Every error answer is `{"error": {code, message, stage?, retryable, details?}}`.',
      },
      tags: [
        { name: 'render', description: 'Start, poll, cancel and download renders.' },
        { name: 'preview', description: 'The preview page: the player and a variables form.' },
        { name: 'meta', description: 'This document.' },
        { name: 'webhooks', description: 'What a render posts to the `webhook.url` of its body (signed; see `Seekframe-Signature`).' },
      ],
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'RENDER_API_TOKEN, when the deployment sets one.' } },
        schemas: {
          RenderBody: RenderBodySchema,
          JobProgress: progress,
          CompletedJob: completed,
          RenderResult: RenderJobResultSchema,
          RenderAccepted: RenderAcceptedSchema,
          RenderFinished: RenderFinishedSchema,
          RenderCallId: RenderCallIdSchema,
          RenderCancelled: RenderCancelledSchema,
          CompositionInfo: CompositionInfoSchema,
          WebhookAttempt: WebhookAttemptSchema,
          ErrorBody: ErrorBodySchema,
        },
      },
      paths: {
        '/': {
          get: previewOperation(
            'The preview page',
            'The composition in `<seekframe-player>` with a form of its variables and a Render button.',
            { 'text/html': { schema: z.string() } },
          ),
        },
        '/preview/{asset}': {
          get: {
            ...previewOperation('A script of the preview page', "The page's own script and the player bundle.", {
              'text/javascript': { schema: z.string() },
            }),
            requestParams: { path: z.object({ asset: z.enum(['app.js', 'seekframe-player.js']) }) },
          },
        },
        '/preview/composition/{path}': {
          get: {
            ...previewOperation(
              'A file of the composition',
              "The composition's files by the render's own rule: the runtime in every HTML file, fonts and npm libraries from local copies. `path` is relative to the composition folder (it may hold `/`); `..` and other escapes answer 404.",
              { '*/*': { schema: z.string().meta({ format: 'binary' }) } },
            ),
            requestParams: { path: z.object({ path: z.string() }) },
          },
        },
        [OPENAPI_PATH]: {
          get: {
            tags: ['meta'],
            summary: 'This document',
            description: 'The render API as OpenAPI 3.1 JSON. Needs no token: it describes the API and holds no data.',
            security: [],
            responses: {
              '200': {
                description: 'The OpenAPI document.',
                content: { 'application/json': { schema: z.object({ openapi: z.string() }).loose() } },
              },
              ...errors(ANY_ROUTE),
            },
          },
        },
        '/api/composition': {
          get: {
            tags: ['render'],
            summary: 'The composition and its variables',
            description: 'Enough to size a player and build a form: the size, fps and duration, and the declared variables.',
            security,
            responses: { '200': json('The composition.', CompositionInfoSchema), ...errors(['invalid-composition', ...API_ROUTE]) },
          },
        },
        '/api/render': {
          post: {
            tags: ['render'],
            summary: 'Start a render',
            description:
              'Checks the body (strict: an unknown field is refused), the variables against their declarations, the frame and pixel limits and the webhook, then renders. ' +
              "Without `Prefer: respond-async` the answer depends on the deployment's answer mode (200); with it, 202 at once. " +
              'An `Idempotency-Key` makes a retry answer the same render instead of starting another.',
            security,
            requestParams: {
              header: z.object({
                'idempotency-key': z
                  .string()
                  .max(255)
                  .optional()
                  .describe(
                    'Any string up to 255 characters (a UUID): the same key with the same body (the same JSON value; key order and spacing do not matter) is the same render; with another body, 409.',
                  ),
                prefer: z.string().optional().describe('`respond-async`: answer 202 with the id at once.'),
              }),
            },
            requestBody: { required: false, content: { 'application/json': { schema: RenderBodySchema } } },
            responses: {
              ...syncAnswer,
              '202': json(accepted, RenderAcceptedSchema, z.object({ location: LocationHeader })),
              ...errors(
                [
                  'invalid-json',
                  'invalid-body',
                  'invalid-variables',
                  'invalid-composition',
                  'lint-failed',
                  'limit-exceeded',
                  'webhook-secret-missing',
                  'path-outside-project',
                  'custom-html-disabled',
                  'idempotency-conflict',
                  'render-cancelled',
                  'body-too-large',
                  ...(options.variablesLimit ? (['variables-too-large'] as const) : []),
                  'too-many-renders',
                  ...API_ROUTE,
                ],
                options.answerMode === 'sync',
              ),
            },
          },
        },
        '/api/render/{id}': {
          get: {
            tags: ['render'],
            summary: 'Poll a render, then download it',
            description:
              "202 with the progress while it is queued or running; once it completed, the file (or a 302 to the store's URL), or its JSON with `Accept: application/json`. " +
              'A failed render answers its error, a cancelled one 409 render-cancelled, one past retention 410 render-expired.',
            security,
            requestParams: {
              path: IdParam,
              header: z.object({
                accept: z.string().optional(),
                range: z.string().optional().describe('`bytes=<start>-<end>` of the file.'),
              }),
            },
            responses: {
              '200': {
                description: 'Completed: the file, or with `Accept: application/json` its JSON.',
                headers: z.object({ 'x-request-id': RequestIdHeader }),
                content: {
                  'application/json': { schema: completed },
                  ...Object.fromEntries(VIDEO_TYPES.map((type) => [type, { schema: VideoFile }])),
                },
              },
              '202': json('Queued or running.', progress, z.object({ 'retry-after': RetryAfterHeader, 'cache-control': z.string() })),
              '206': {
                description: 'Completed: the requested byte range of the file.',
                content: Object.fromEntries(VIDEO_TYPES.map((type) => [type, { schema: VideoFile }])),
              },
              '302': { description: "Completed: the file is at the object store's URL.", headers: z.object({ location: z.string() }) },
              '416': { description: 'The Range has no byte in the file.', headers: z.object({ 'content-range': z.string() }) },
              ...errors(['render-not-found', 'render-cancelled', 'render-expired', ...API_ROUTE], true),
            },
          },
          delete: {
            tags: ['render'],
            summary: 'Cancel a render',
            description: 'Stops a queued or running render; its status answers 409 render-cancelled from then on.',
            security,
            requestParams: { path: IdParam },
            responses: {
              '202': json('Cancelled.', RenderCancelledSchema),
              ...errors(['render-not-found', 'render-not-running', 'render-expired', ...API_ROUTE]),
            },
          },
        },
        ...(serveRenders
          ? {
              '/renders/{name}': {
                get: storedRender(security),
                head: { ...storedRender(security), summary: 'The size and type of a stored render' },
              },
            }
          : {}),
      },
      webhooks: webhookOperations(),
    },
    { override: relaxAnswers },
  );
  return document;
}

/**
 * Answers may gain fields within a version, so a response schema does not forbid extra ones (zod
 * writes `additionalProperties: false` for every object it outputs); and the safe-integer bounds
 * zod gives every `.int()` say nothing a JSON integer does not.
 */
function relaxAnswers({ jsonSchema, io }: { jsonSchema: Record<string, unknown>; io: 'input' | 'output' }): void {
  if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

function storedRender(security: Record<string, string[]>[]): ZodOpenApiOperationObject {
  return {
    tags: ['render'],
    summary: 'A stored render',
    description: 'A finished file by its name under `renders/` (the `url` a render answers in this mode), with Range.',
    security,
    requestParams: { path: z.object({ name: z.string().describe('`<id>.<ext>`, a plain file name.') }) },
    responses: {
      '200': { description: 'The file.', content: Object.fromEntries(VIDEO_TYPES.map((type) => [type, { schema: VideoFile }])) },
      '206': {
        description: 'The requested byte range.',
        content: Object.fromEntries(VIDEO_TYPES.map((type) => [type, { schema: VideoFile }])),
      },
      '416': { description: 'The Range has no byte in the file.' },
      ...errors(['not-found', 'render-expired', ...API_ROUTE]),
    },
  };
}
