import { request, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * Forwards a request to the project server (runtime injection, remote assets, ranges) unchanged,
 * streaming both ways. The Referer is rewritten to the project server's origin so its
 * missing-asset messages name the referring file, as they do in a render.
 */
export function proxyRequest(req: IncomingMessage, res: ServerResponse, target: { origin: string; ownOrigin: string }): void {
  const url = new URL(target.origin);
  const headers = { ...req.headers, host: url.host };
  if (typeof headers.referer === 'string' && headers.referer.startsWith(target.ownOrigin)) {
    headers.referer = target.origin + headers.referer.slice(target.ownOrigin.length);
  }
  const upstream = request(
    { hostname: url.hostname, port: url.port, path: req.url ?? '/', method: req.method ?? 'GET', headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`preview proxy: ${error.message}`);
  });
  req.pipe(upstream);
}
