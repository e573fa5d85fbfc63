import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request it was asked to forward (`GET http://host/path`, `CONNECT host:443`). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy on 127.0.0.1 that forwards nothing: it records each request and answers 502.
 * Chromium started with `all_proxy`/`http_proxy`/`https_proxy` pointing here reaches nothing
 * but loopback (which bypasses proxies), and every attempt to go further shows up in `requests`.
 */
export async function startRecordingProxy(): Promise<RecordingProxy> {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(502, { 'content-type': 'text/plain' }).end('no network here');
  });
  server.on('connect', (request, socket) => {
    requests.push(`CONNECT ${request.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
