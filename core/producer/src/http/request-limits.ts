import type { MiddlewareHandler } from 'hono';
import { SeekframeError } from '@seekframe/composition';

/** Longest path + query, and most header bytes, a request may have (414 / 431 beyond). Node's own
 *  parser refuses past 16 KiB before any app runs (answerClientErrors answers those as JSON);
 *  Workers, Next and the Python app pass larger requests through, up to their platform's limits. */
export const MAX_URL_BYTES = 8 * 1024;
export const MAX_HEADER_BYTES = 12 * 1024;

/** Refuses a request whose URL (414 `url-too-long`) or headers (431 `headers-too-large`) are too big. */
export function requestLimits(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    if (url.pathname.length + url.search.length > MAX_URL_BYTES) {
      throw new SeekframeError('url-too-long', `The request URL is longer than ${MAX_URL_BYTES} bytes; send parameters in the JSON body.`, {
        stage: 'config',
      });
    }
    let bytes = 0;
    c.req.raw.headers.forEach((value, name) => {
      bytes += name.length + value.length + 4;
    });
    if (bytes > MAX_HEADER_BYTES) {
      throw new SeekframeError(
        'headers-too-large',
        `The request headers are larger than ${MAX_HEADER_BYTES} bytes; send less in headers, or put data in the body.`,
        { stage: 'config' },
      );
    }
    await next();
  };
}
