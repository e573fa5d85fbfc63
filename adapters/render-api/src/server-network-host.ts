/**
 * Loopback, private, link-local and unspecified address literals and `localhost` names, judged
 * from the URL alone (no DNS): what a Worker, which cannot resolve names, can tell about a host.
 * Node faces resolve the name too (checkWebhookUrl in @seekframe/producer).
 */
export function isServerNetworkHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host.replace(/^::ffff:/, ''));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b < 128) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168);
  }
  return host === '::' || host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
}

/** 127.x, ::1 and `localhost` names: what the local-testing opt-in RENDER_WEBHOOK_ALLOW_LOOPBACK opens. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The webhook address check of a Worker: refuses a URL whose host is a server-network literal or
 * name (loopback only with the opt-in). A public name that resolves into a private range is not
 * caught here; on Cloudflare a subrequest leaves from Cloudflare's network, which does not route
 * into the deployment's or anyone's private ranges.
 */
export function workerWebhookUrlCheck(options: { allowLoopback?: boolean } = {}): (url: string) => Promise<void> {
  return async (url) => {
    const { hostname } = new URL(url);
    if (isServerNetworkHost(hostname) && !(options.allowLoopback && isLoopbackHost(hostname))) {
      throw new Error(`${hostname} is a loopback/private/link-local address, which this deployment does not send to`);
    }
  };
}
