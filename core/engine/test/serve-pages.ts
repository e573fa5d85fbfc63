import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real loopback HTTP server serving fixed pages by path; 404 for anything else. */
export async function servePages(
  pages: Record<string, string>,
): Promise<{ url: (path: string) => string; close: () => Promise<void>; requested: (path: string) => boolean }> {
  const seen = new Set<string>();
  const server: Server = createServer((req, res) => {
    seen.add(req.url ?? '');
    // A request that never answers, to test load timeouts.
    if (req.url === '/hang.png' || req.url?.startsWith('/hang.png?')) return;
    const body = pages[req.url ?? ''];
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requested: (path) => seen.has(path),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A stand-in for the real runtime: seek(t) paints the body in a colour derived from t
 * (red = t * 100, green = 50, blue = 200) after one animation frame, like a real seek would.
 */
export function colourPage(
  opts: { transparent?: boolean; readyNever?: boolean; noRuntime?: boolean; seekThrows?: boolean | number; scriptError?: string } = {},
): string {
  const runtime = opts.noRuntime
    ? ''
    : `<script>
  window.__seekframe = {
    ready: ${opts.readyNever ? 'new Promise(() => {})' : 'Promise.resolve()'},
    pending: () => ['font "Missing Sans"', 'image /hero.png'],
    errors: () => ${JSON.stringify(opts.scriptError ? [opts.scriptError] : [])},
    seek(t) {
      ${opts.seekThrows === true ? "throw new Error('boom at ' + t);" : ''}
      ${typeof opts.seekThrows === 'number' ? `if (t >= ${opts.seekThrows}) throw new Error('boom at ' + t);` : ''}
      const box = document.getElementById('box');
      box.style.background = 'rgb(' + Math.round(t * 100) + ', 50, 200)';
      return new Promise((resolve) => requestAnimationFrame(() => resolve()));
    },
  };
</script>`;
  const bodyBg = opts.transparent ? 'transparent' : '#000';
  return `<!doctype html><html><head>${runtime}<style>
html, body { margin: 0; background: ${bodyBg}; }
#box { width: ${opts.transparent ? '50%' : '100%'}; height: 100vh; }
</style></head><body><div id="box"></div></body></html>`;
}
