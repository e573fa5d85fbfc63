import type { Context, MiddlewareHandler } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import { preflightRender } from './preflight-render.js';
import { readBoundedBody } from './read-bounded-body.js';
import { parseRenderRequest, type ParsedRenderRequest } from './render-request.js';
import { serverError, type ProducerEnv } from './server-env.js';
import type { ProducerServerConfig } from './server-options.js';

/** Deepest JSON nesting a body may have; `variables` are flat values in practice. */
const MAX_JSON_DEPTH = 32;

/**
 * Reads the body up to the server's limit before a route runs: over it, 413 (the rest is read and
 * thrown away up to 4x the limit, so the client finishes sending and sees the answer).
 */
export function bodyWithin(config: Pick<ProducerServerConfig, 'maxBodyBytes'>): MiddlewareHandler<ProducerEnv> {
  return async (c, next) => {
    const declared = Number(c.req.header('content-length'));
    const read = await readBoundedBody(c.req.raw.body, config.maxBodyBytes, Math.max(4 * config.maxBodyBytes, 8 * 1024 * 1024));
    if ('tooLarge' in read || declared > config.maxBodyBytes) {
      throw serverError(
        'body-too-large',
        `The request body is larger than ${config.maxBodyBytes} bytes; put large assets at public URLs instead of inlining them.`,
      );
    }
    c.set('bodyText', read.text);
    await next();
  };
}

/** The read body as a render request, checked (lint errors and limits answer 400 here, before a slot is taken or a stream opened). */
export async function readRenderRequest(
  c: Context<ProducerEnv>,
  config: Pick<ProducerServerConfig, 'root' | 'maxHtmlBytes' | 'limits'>,
): Promise<ParsedRenderRequest> {
  let body: unknown;
  try {
    body = JSON.parse(c.get('bodyText'));
  } catch {
    throw new SeekframeError(
      'invalid-json',
      'The request body is not valid JSON; send Content-Type: application/json with a JSON object.',
      {
        stage: 'config',
      },
    );
  }
  if (depthOf(body) > MAX_JSON_DEPTH) {
    throw new SeekframeError(
      'invalid-body',
      `The request body nests deeper than ${MAX_JSON_DEPTH} levels; variables are flat values (strings, numbers, booleans, small arrays or objects).`,
      { stage: 'config' },
    );
  }
  const request = await parseRenderRequest(body, { root: config.root, maxHtmlBytes: config.maxHtmlBytes });
  await preflightRender(request, { root: config.root, limits: config.limits });
  return request;
}

/** Nesting depth of a JSON value, counted without recursion (a hostile body cannot overflow the stack). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    if (item !== null && typeof item === 'object') for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}
