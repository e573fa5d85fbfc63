import type { MiddlewareHandler } from 'hono';
import { SeekframeError } from '@seekframe/composition';
import { constantTimeEqual } from './constant-time-equal.js';

export interface BearerTokenOptions {
  /** The expected token; unset or empty = every request passes. */
  token: string | undefined;
  /** The 401 message: which header to send, and where the token comes from. */
  message: string;
}

/**
 * Refuses a request without `Authorization: Bearer <token>` (401 `unauthorized`, thrown so the
 * face's error handler answers it with WWW-Authenticate). The comparison takes the same time
 * whatever the presented token (constantTimeEqual). Written here rather than taken from
 * `hono/bearer-auth` because that one answers a malformed header with 400, and every face
 * answers 401 for any missing or wrong token.
 */
export function bearerToken(options: BearerTokenOptions): MiddlewareHandler {
  const { token, message } = options;
  return async (c, next) => {
    if (token) {
      const match = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '');
      if (!match || !(await constantTimeEqual(match[1]!.trim(), token))) {
        throw new SeekframeError('unauthorized', message, { stage: 'config' });
      }
    }
    await next();
  };
}
