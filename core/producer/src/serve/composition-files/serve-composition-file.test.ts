import { describe, expect, it } from 'vitest';
import { SeekframeError, type SeekframeError as SeekframeErrorType } from '@seekframe/composition';
import { createRuntimeInjector } from '../create-runtime-injector.js';
import type { CompositionHost } from './composition-host.js';
import { createCompositionFiles } from './serve-composition-file.js';

const FILES: Record<string, string> = {
  'index.html': `<!doctype html><html data-composition-id="m" data-width="16" data-height="9" data-duration="1"><head>
<script src="node_modules/lib/lib.js"></script><img src="https://example.test/a.png"></head><body></body></html>`,
  'broken.html': '<!doctype html><html><head></head><body><div data-composition-src="x.html"></div></body></html>',
  'style.css': "@import url('https://fonts.googleapis.com/css2?family=Nope');",
  'parts/other.html': '<!doctype html><html><head><script src="https://cdn.other.test/o.js"></script></head><body></body></html>',
};

/** A composition in memory with one installed package (`lib`) and no font packages. */
function memoryHost(
  log: { missing: string[]; problems: SeekframeErrorType[]; packages: string[] },
  network?: CompositionHost['networkFile'],
): CompositionHost {
  return {
    async projectFile(path) {
      const text = FILES[path];
      return text === undefined ? null : { path, text: async () => text, respond: () => new Response(text) };
    },
    async packageFile(url) {
      log.packages.push(url);
      return url === 'https://cdn.jsdelivr.net/npm/lib/lib.js'
        ? { contentType: 'text/javascript', body: new TextEncoder().encode('window.lib = 1') }
        : null;
    },
    ...(network ? { networkFile: network } : {}),
    findFont: async () => null,
    fontFile: async (id, name) => (id === 'inter' && name === 'a.woff2' ? new Response('font') : null),
    reportMissing: (path) => log.missing.push(path),
    reportProblem: (error) => log.problems.push(error),
  };
}

const rule = (host: CompositionHost, base = '/c/') =>
  createCompositionFiles({
    host,
    entry: 'index.html',
    base,
    prepareHtml: createRuntimeInjector({ runtimeSource: '/*rt*/', mode: 'preview' }),
  });
const get = (files: ReturnType<typeof rule>, path: string, headers: Record<string, string> = {}) =>
  files(new Request(`http://x${path}`, { headers }));

describe('createCompositionFiles', () => {
  it('prepares HTML under its base (runtime, remote references through its own route) and answers node_modules/ paths from the installed package', async () => {
    const log = { missing: [], problems: [], packages: [] };
    const files = rule(memoryHost(log));
    const html = await (await get(files, '/c/index.html')).text();
    expect(html).toContain('<script>/*rt*/</script>');
    expect(html).toContain(`<img src="/c/__seekframe/remote?url=${encodeURIComponent('https://example.test/a.png')}">`);
    const lib = await get(files, '/c/node_modules/lib/lib.js');
    expect([lib.status, await lib.text()]).toEqual([200, 'window.lib = 1']);
    expect(log.packages).toEqual(['https://cdn.jsdelivr.net/npm/lib/lib.js']);
    expect(await get(files, '/c/style.css').then((r) => r.text())).toContain(`@import url("/c/__seekframe/remote?url=`);
  });

  it('answers 404 and reports a missing file (also a node_modules/ path nothing has), 405 for other methods, 404 outside its base', async () => {
    const log = { missing: [] as string[], problems: [], packages: [] };
    const files = rule(memoryHost(log));
    expect((await get(files, '/c/nope.js')).status).toBe(404);
    expect((await get(files, '/c/node_modules/other/x.js')).status).toBe(404);
    expect(log.missing).toEqual(['nope.js', 'node_modules/other/x.js']);
    expect((await files(new Request('http://x/c/index.html', { method: 'POST' }))).status).toBe(405);
    expect((await get(files, '/elsewhere/index.html')).status).toBe(404);
  });

  it('reports an HTML file it cannot prepare and answers 500 with the reason', async () => {
    const log = { missing: [], problems: [] as SeekframeErrorType[], packages: [] };
    const files = createCompositionFiles({
      host: memoryHost(log),
      entry: 'broken.html',
      base: '/c/',
      prepareHtml: createRuntimeInjector({ runtimeSource: '', mode: 'preview' }),
    });
    const answer = await get(files, '/c/broken.html');
    expect(answer.status).toBe(500);
    expect(log.problems[0]?.code).toBe('invalid-composition');
  });

  it('remote route: the network when the host has one (502 with its message on failure), else a redirect for a subresource and 404 for a navigation', async () => {
    const url = encodeURIComponent('https://example.test/a.png');
    const failing = rule(
      memoryHost({ missing: [], problems: [], packages: [] }, async () => {
        throw new SeekframeError('remote-asset-failed', 'Could not load https://example.test/a.png: refused', { stage: 'serve' });
      }),
    );
    const failed = await get(failing, `/c/__seekframe/remote?url=${url}`);
    expect([failed.status, await failed.text()]).toEqual([502, 'Could not load https://example.test/a.png: refused']);
    const offline = rule(memoryHost({ missing: [], problems: [], packages: [] }));
    const image = await get(offline, `/c/__seekframe/remote?url=${url}`, { 'sec-fetch-dest': 'image' });
    expect([image.status, image.headers.get('location')]).toEqual([307, 'https://example.test/a.png']);
    expect((await get(offline, `/c/__seekframe/remote?url=${url}`, { 'sec-fetch-dest': 'document' })).status).toBe(404);
    expect((await get(offline, `/c/__seekframe/remote?url=${url}`)).status).toBe(404);
    expect((await get(offline, `/c/__seekframe/remote?url=${encodeURIComponent('file:///etc/passwd')}`)).status).toBe(400);
  });

  it('remote route without a network: redirects only to URLs the composition names, never to one a request made up', async () => {
    const offline = rule(memoryHost({ missing: [], problems: [], packages: [] }));
    const ask = (url: string, headers: Record<string, string> = {}) =>
      get(offline, `/c/__seekframe/remote?url=${encodeURIComponent(url)}`, { 'sec-fetch-dest': 'script', ...headers });
    // Not in any page: an open redirect on the deployment's origin otherwise.
    for (const url of ['https://evil.test/x.js', 'https://example.test/a.png?x', 'https://cdn.other.test/o.js']) {
      const answer = await ask(url);
      expect([answer.status, answer.headers.get('location')], url).toEqual([404, null]);
    }
    // Named by a page other than the entry: learnt from the document the browser says asked (Referer),
    // as when another instance of a serverless host served that page.
    const fromOther = await ask('https://cdn.other.test/o.js', { referer: 'http://x/c/parts/other.html' });
    expect([fromOther.status, fromOther.headers.get('location')]).toEqual([307, 'https://cdn.other.test/o.js']);
    // A Referer elsewhere teaches nothing.
    const fresh = rule(memoryHost({ missing: [], problems: [], packages: [] }));
    const elsewhere = await get(fresh, `/c/__seekframe/remote?url=${encodeURIComponent('https://cdn.other.test/o.js')}`, {
      'sec-fetch-dest': 'script',
      referer: 'http://evil.test/c/parts/other.html',
    });
    expect(elsewhere.status).toBe(404);
  });

  it('font route: a file of an installed package, 404 otherwise', async () => {
    const files = rule(memoryHost({ missing: [], problems: [], packages: [] }));
    expect(await (await get(files, '/c/__seekframe/fonts/inter/a.woff2')).text()).toBe('font');
    expect((await get(files, '/c/__seekframe/fonts/inter/b.woff2')).status).toBe(404);
    expect((await get(files, '/c/__seekframe/fonts/inter/a/b.woff2')).status).toBe(404);
  });
});
