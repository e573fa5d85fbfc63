import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The host names `seekframe preview` answers as: the loopback names and the address it listens on.
 * A page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) becomes same-origin with
 * the preview in the browser, but its requests still carry its own name in `Host`: they are
 * refused, so it can read no project file and start no render.
 */
export function previewHosts(listenHost: string): string[] {
  return [...new Set(['127.0.0.1', 'localhost', '[::1]', listenHost.includes(':') ? `[${listenHost}]` : listenHost])];
}

/** Whether a request's `Host` header (port and all) names one of `hosts`. */
export function isPreviewHost(hosts: readonly string[], header: string | undefined): boolean {
  return hosts.includes((header ?? '').toLowerCase().replace(/:\d+$/, ''));
}

/** Answers a request made under another host name: 403, and why. */
export function refuseForeignHost(res: ServerResponse, req: IncomingMessage, hosts: readonly string[]): void {
  res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(
    `The preview answers only as ${hosts.join(', ')}, not as ${JSON.stringify(req.headers.host ?? '')}; open the URL the command printed.\n`,
  );
}
