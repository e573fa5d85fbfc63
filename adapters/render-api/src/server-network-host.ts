/**
 * Loopback, private, link-local, unspecified and other special address literals and `localhost`
 * names, judged from the URL alone (no DNS): what a Worker, which cannot resolve names, can tell
 * about a host. IPv4 literals are judged by the ranges of the media rule (isPrivateAddress in
 * @seekframe/producer); an IPv6 literal passes only as global unicast (2000::/3) outside 6to4 and
 * the IETF blocks, so IPv4-mapped (`[::ffff:7f00:1]`, as URL parsing spells `[::ffff:127.0.0.1]`),
 * NAT64 and the rest are refused. `hostname` is a URL's hostname (already normalised by URL
 * parsing: `0x7f.1` is `127.0.0.1`). Node faces resolve the name too (checkWebhookUrl).
 */
export function isServerNetworkHost(hostname: string): boolean {
  // A trailing dot names the same host (`localhost.`).
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return isSpecialIpv4(Number(v4[1]), Number(v4[2]), Number(v4[3]));
  if (!host.includes(':')) return false;
  const first = parseInt(host.startsWith(':') ? '0' : host.split(':')[0]!, 16);
  const second = parseInt(host.split(':')[1] || '0', 16);
  if (host.includes('.') || (first & 0xe000) !== 0x2000) return true;
  // 6to4 (2002::/16) reaches an IPv4 address; 2001::/23 holds Teredo and other IETF blocks;
  // 2001:db8::/32 and 3fff::/20 are documentation.
  return first === 0x2002 || (first === 0x2001 && (second < 0x200 || second === 0xdb8)) || (first & 0xfff0) === 0x3ff0;
}

/** The IPv4 ranges of the media rule: this network, private, CGNAT, loopback, link-local, IETF, documentation, benchmarking, multicast, reserved. */
function isSpecialIpv4(a: number, b: number, c: number): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a >= 224 ||
    (a === 100 && b >= 64 && b < 128) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b < 32) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 192 && b === 88 && c === 99) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  );
}

/** 127.x, ::1 and `localhost` names: what the local-testing opt-in RENDER_WEBHOOK_ALLOW_LOOPBACK opens. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * The webhook address check of a Worker: refuses a URL whose host is a server-network literal or
 * name (loopback only with the opt-in). A public name that resolves into a private range
 * (`127.0.0.1.nip.io`) is not caught here: a Worker cannot resolve names. Deployed, its subrequests
 * leave from Cloudflare's network and may not name an IP address at all (Cloudflare's Workers
 * documentation, "Known issues"); that Cloudflare also refuses a name resolving to a private
 * address is not stated there (docs/deploy/webhooks.md says so). Under `wrangler dev` fetch is
 * this machine's: such a name reaches it.
 */
export function workerWebhookUrlCheck(options: { allowLoopback?: boolean } = {}): (url: string) => Promise<void> {
  return async (url) => {
    const { hostname } = new URL(url);
    if (isServerNetworkHost(hostname) && !(options.allowLoopback && isLoopbackHost(hostname))) {
      // `kind` lets the refusal say what would help (checkWebhookRequest's refusalHint).
      const kind = isLoopbackHost(hostname) ? 'loopback' : isUnspecifiedHost(hostname) ? 'unspecified' : 'private';
      throw Object.assign(new Error(`${hostname} is a loopback/private/link-local address, which this deployment does not send to`), {
        kind,
      });
    }
  };
}

/** 0.0.0.0/8, `[::]` and their IPv4-mapped forms (URL parsing spells `[::ffff:0.1.2.3]` as `[::ffff:1:203]`). */
function isUnspecifiedHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (/^0\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::') return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(host);
  return mapped !== null && parseInt(mapped[1]!, 16) >> 8 === 0;
}
