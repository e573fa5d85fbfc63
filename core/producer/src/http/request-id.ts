import type { MiddlewareHandler } from 'hono';

/** What a client may send as its own request id; anything else is replaced by a new UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type RequestIdEnv = { Variables: { requestId: string } };

/**
 * Gives every request an id (`c.get('requestId')`): the client's `X-Request-Id` when it is a
 * plain token, else a new UUID, echoed in the answer's `x-request-id`. Written here rather than
 * taken from `hono/request-id` because that one accepts a different alphabet (no `.` or `:`),
 * and clients of the render API already send ids with those.
 */
export function requestId(): MiddlewareHandler<RequestIdEnv> {
  return async (c, next) => {
    const given = c.req.header('x-request-id');
    const id = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    c.set('requestId', id);
    await next();
    c.res.headers.set('x-request-id', id);
  };
}
