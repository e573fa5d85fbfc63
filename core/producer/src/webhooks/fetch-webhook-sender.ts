import type { WebhookSender } from './deliver-webhook.js';

/**
 * A sender over `fetch` for runtimes without sockets of their own (a Cloudflare Worker, whose
 * subrequests leave from Cloudflare's network, never from this machine's). Redirects are not
 * followed (`redirect: 'manual'` answers the 3xx itself). `checkUrl` runs before each POST and
 * throws when the address may not be reached.
 */
export function createFetchWebhookSender(
  options: { fetch?: typeof fetch; checkUrl?: (url: string) => void | Promise<void> } = {},
): WebhookSender {
  const send = options.fetch ?? fetch;
  return async (post) => {
    try {
      await options.checkUrl?.(post.url);
    } catch (error) {
      throw Object.assign(new Error(error instanceof Error ? error.message : String(error)), { retryable: false });
    }
    const signal = AbortSignal.timeout(post.timeoutMs);
    try {
      const response = await send(post.url, { method: 'POST', body: post.body, headers: post.headers, redirect: 'manual', signal });
      await response.body?.cancel().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      if (signal.aborted) throw new Error(`no answer within ${post.timeoutMs} ms`);
      throw new Error(`the request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
