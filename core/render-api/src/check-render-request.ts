import { canonicalJson, extractCompositionMetadata, type CompositionMetadata } from '@seekframe/composition';
import { apiError } from './api-error.js';
import { checkCustomHtmlSources } from './check-custom-html.js';
import { inlinePreflightHost, preflightComposition } from './preflight-composition.js';
import { sha256Hex } from '@seekframe/producer/http';
import { DEFAULT_FPS } from './load-composition.js';
import {
  checkRenderDemand,
  checkRenderVariables,
  fieldProblem,
  parseRenderBody,
  toJobRequest,
  type RenderBody,
} from './parse-render-body.js';
import type { RenderApiLimits, RenderApiWebhooks } from './render-api-options.js';
import { checkWebhookRequest } from '@seekframe/producer/webhooks';
import type { RenderJobRequest } from './render-job.js';

export interface CheckedRenderRequest {
  request: RenderJobRequest;
  /** null when the composition is not known here (`composition: null`). */
  totalFrames: number | null;
  /** SHA-256 hex of the parsed body re-serialised (Idempotency-Key comparisons). */
  bodyHash: string;
}

/**
 * Everything `POST /api/render` checks about a body, in order: JSON, shape, custom html
 * allowed and small enough, the composition's preflight (the one lint and the render run:
 * 400 lint-failed), variables against the declarations (strict), frame and pixel
 * limits, the webhook (a secret to sign with, an address it may reach). One function, so a template in another language (the Python function template runs
 * it through Node) refuses exactly what this API refuses. Throws the SeekframeError to answer.
 */
export async function checkRenderRequest(
  text: string,
  context: {
    /**
     * The composition the variables and limits are checked against; null where it is not known
     * at start (the Lambda client's uploaded project, checked when the render plans): then only
     * the body's shape, size and webhook are.
     */
    composition: (() => Promise<CompositionMetadata>) | null;
    /**
     * The shared preflight of that composition (lint's rules and the files its pages load,
     * `compositionPreflight`): throws lint-failed. Absent where the composition is not known here.
     */
    preflight?: () => Promise<void>;
    allowCustomHtml: boolean;
    /** `still` accepted (default true; the Lambda API says false). */
    allowStills?: boolean;
    limits: Pick<RenderApiLimits, 'maxFrames' | 'maxPixels' | 'maxHtmlBytes' | 'maxVariablesBytes'>;
    webhooks?: Pick<RenderApiWebhooks, 'secret' | 'checkUrl'> | undefined;
  },
): Promise<CheckedRenderRequest> {
  let json: unknown = {};
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw apiError(
        'invalid-json',
        'The request body is not valid JSON; send e.g. {"variables":{"title":"Hi"}} with Content-Type: application/json.',
      );
    }
  }
  const body = parseRenderBody(json);
  if (body.still !== undefined) checkStillBody(body, context.allowStills ?? true);
  checkVariablesSize(body.variables, context.limits.maxVariablesBytes);
  let metadata: CompositionMetadata | null;
  if (body.html !== undefined) {
    if (!context.allowCustomHtml) {
      throw apiError(
        'custom-html-disabled',
        'This deployment renders only its own composition; custom html is off. On a template, set ALLOW_CUSTOM_HTML=true to allow it; an AWS Lambda deployment renders projects only (`seekframe lambda render <dir>`).',
      );
    }
    const bytes = new TextEncoder().encode(body.html).length;
    if (bytes > context.limits.maxHtmlBytes) {
      throw apiError(
        'body-too-large',
        `html is ${bytes} bytes, more than this deployment's limit of ${context.limits.maxHtmlBytes}; put large assets at public URLs.`,
        {
          details: { field: 'html', limit: context.limits.maxHtmlBytes },
        },
      );
    }
    metadata = extractCompositionMetadata(body.html, { file: 'html' });
    checkCustomHtmlSources(metadata);
    await preflightComposition('index.html', inlinePreflightHost(body.html));
  } else {
    // First, as the render runs it first: a broken root is answered with lint's findings too.
    if (context.composition) await context.preflight?.();
    metadata = context.composition ? await context.composition() : null;
  }
  const variables = checkRenderVariables(body.variables, metadata);
  const totalFrames = metadata
    ? checkRenderDemand(metadata, body.fps ?? metadata.fps ?? DEFAULT_FPS, context.limits, body.frames, body.still)
    : null;
  if (body.webhook) await checkWebhookRequest(body.webhook, context.webhooks);
  return { request: toJobRequest(body, variables), totalFrames, bodyHash: await sha256Hex(canonicalJson(json)) };
}

/** A still is one PNG: no video format or frame span with it, and only where the runner makes stills. */
function checkStillBody(body: RenderBody, allowed: boolean): void {
  if (!allowed) {
    throw fieldProblem(
      'still',
      "this deployment renders videos only (its renders join video chunks made on several machines); make a still with `seekframe still <dir> --time 1.5s`, or with a template's POST /api/render",
    );
  }
  const other = body.format !== undefined ? 'format' : body.frames !== undefined ? 'frames' : undefined;
  if (other)
    throw fieldProblem('still', `makes a PNG of one frame, so ${other} does not go with it; drop ${other}, or drop still for a video`);
}

/** 413 `variables-too-large` past the deployment's `maxVariablesBytes` (unset: no own bound). */
function checkVariablesSize(variables: unknown, limit: number | undefined): void {
  if (limit === undefined || variables === undefined) return;
  const bytes = new TextEncoder().encode(JSON.stringify(variables)).length;
  if (bytes <= limit) return;
  throw apiError(
    'variables-too-large',
    `The variables are ${Math.ceil(bytes / 1024)} KiB; this deployment accepts at most ${Math.floor(limit / 1024)} KiB. Put large data (images, long lists, media) in files and pass their URLs as variables.`,
    { details: { bytes, limit } },
  );
}
