import type { Context, ErrorHandler } from 'hono';
import { httpStatusOf, SeekframeError, type SeekframeErrorData } from '@seekframe/composition';

/** The one error body of every HTTP face: `{error: {code, message, stage?, retryable, details?}}`. */
export interface ErrorBody {
  error: SeekframeErrorData;
}

export interface ErrorResponseOptions {
  /** Seconds a client is told to wait after 429 `too-many-renders` (`Retry-After`). Default 10. */
  retryAfterSeconds?: number;
  /** Rewrites text before it leaves (the producer server takes absolute server paths out). */
  scrub?: (text: string) => string;
}

/** Anything thrown becomes a SeekframeError; a stack or a library's message never reaches a client. */
export function asSeekframeError(error: unknown): SeekframeError {
  if (error instanceof SeekframeError) return error;
  return new SeekframeError('internal-error', 'The server hit an unexpected problem; try again, and report it if it persists.', {
    retryable: true,
  });
}

/** The error's data as a client sees it: scrubbed message and details. */
export function errorBody(error: SeekframeError | SeekframeErrorData, scrub?: (text: string) => string): ErrorBody {
  const data = error instanceof SeekframeError ? error.toJSON() : error;
  if (!scrub) return { error: data };
  return {
    error: {
      ...data,
      message: scrub(data.message),
      ...(data.details ? { details: JSON.parse(scrub(JSON.stringify(data.details))) as Record<string, unknown> } : {}),
    },
  };
}

/**
 * The answer to an error: its status from ERROR_HTTP_STATUS (@seekframe/composition), the one
 * body shape, and the headers a status asks for (Retry-After at capacity, WWW-Authenticate on
 * 401, Connection: close when an oversized body was left unread).
 */
export function errorResponse(error: SeekframeError | SeekframeErrorData, options: ErrorResponseOptions = {}): Response {
  const body = errorBody(error, options.scrub);
  const headers = new Headers({ 'content-type': 'application/json' });
  if (body.error.code === 'too-many-renders') headers.set('retry-after', String(options.retryAfterSeconds ?? 10));
  if (body.error.code === 'unauthorized') headers.set('www-authenticate', 'Bearer');
  // The rest of an oversized body is never read: the connection cannot carry another request.
  if (body.error.code === 'body-too-large') headers.set('connection', 'close');
  return new Response(JSON.stringify(body), { status: httpStatusOf(body.error.code), headers });
}

/**
 * The `app.onError` of every face: the error as `errorResponse` answers it, with the request's id
 * (set by `requestId()`) echoed even when a refusal came before that middleware finished.
 */
export function errorHandler(options: ErrorResponseOptions = {}): ErrorHandler {
  return (error: unknown, c: Context) => {
    const response = errorResponse(asSeekframeError(error), options);
    const id = (c.get as (key: string) => unknown)('requestId');
    if (typeof id === 'string') response.headers.set('x-request-id', id);
    return response;
  };
}
