import { extractCompositionMetadata, type CompositionMetadata } from '@seekframe/composition';
import { apiError } from './api-error.js';
import { checkCustomHtmlSources } from './check-custom-html.js';
import { sha256Hex } from '@seekframe/producer/http';
import { DEFAULT_FPS } from './load-composition.js';
import { checkRenderDemand, checkRenderVariables, parseRenderBody, toJobRequest } from './parse-render-body.js';
import type { RenderApiLimits, RenderApiWebhooks } from './render-api-options.js';
import { checkWebhookRequest } from '@seekframe/producer/webhooks';
import type { RenderJobRequest } from './render-job.js';

export interface CheckedRenderRequest {
  request: RenderJobRequest;
  totalFrames: number;
  /** SHA-256 hex of the parsed body re-serialised (Idempotency-Key comparisons). */
  bodyHash: string;
}

/**
 * Everything `POST /api/render` checks about a body, in order: JSON, shape, custom html
 * allowed and small enough, variables against the declarations (strict), frame and pixel
 * limits, the webhook (a secret to sign with, an address it may reach). One function, so a template in another language (the Python function template runs
 * it through Node) refuses exactly what this API refuses. Throws the SeekframeError to answer.
 */
export async function checkRenderRequest(
  text: string,
  context: {
    composition: () => Promise<CompositionMetadata>;
    allowCustomHtml: boolean;
    limits: Pick<RenderApiLimits, 'maxFrames' | 'maxPixels' | 'maxHtmlBytes'>;
    webhooks?: Pick<RenderApiWebhooks, 'secret' | 'checkUrl'> | undefined;
  },
): Promise<CheckedRenderRequest> {
  let json: unknown = {};
  if (text.trim() !== '') {
    try {
      json = JSON.parse(text);
    } catch {
      throw apiError('invalid-json', 'The request body is not valid JSON; send e.g. {"variables":{"title":"Hi"}} with Content-Type: application/json.');
    }
  }
  const body = parseRenderBody(json);
  let metadata: CompositionMetadata;
  if (body.html !== undefined) {
    if (!context.allowCustomHtml) {
      throw apiError('custom-html-disabled', 'This deployment renders only its own composition; custom html is off. Set ALLOW_CUSTOM_HTML=true to allow it.');
    }
    const bytes = new TextEncoder().encode(body.html).length;
    if (bytes > context.limits.maxHtmlBytes) {
      throw apiError('body-too-large', `html is ${bytes} bytes, more than this deployment's limit of ${context.limits.maxHtmlBytes}; put large assets at public URLs.`, {
        details: { field: 'html', limit: context.limits.maxHtmlBytes },
      });
    }
    metadata = extractCompositionMetadata(body.html, { file: 'html' });
    checkCustomHtmlSources(metadata);
  } else {
    metadata = await context.composition();
  }
  const variables = checkRenderVariables(body.variables, metadata);
  const fps = body.fps ?? metadata.fps ?? DEFAULT_FPS;
  const totalFrames = checkRenderDemand(metadata, fps, context.limits);
  if (body.webhook) await checkWebhookRequest(body.webhook, context.webhooks);
  return { request: toJobRequest(body, variables), totalFrames, bodyHash: await sha256Hex(JSON.stringify(json)) };
}
