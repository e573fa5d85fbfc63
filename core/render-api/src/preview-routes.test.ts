import { describe, expect, it } from 'vitest';
import { createCompositionFiles, createRuntimeInjector, type CompositionHost } from '@seekframe/producer/composition-files';
import { createRenderApi } from './create-render-api.js';
import { createMemoryJobStore } from './memory-job-store.js';
import type { FileSource, RenderRunner } from './ports.js';
import { PREVIEW_COMPOSITION_BASE, PREVIEW_CSP } from './preview-routes.js';
import type { RenderApiOptions } from './render-api-options.js';

const RUNTIME = '/*runtime*/';
const ENTRY = `<!doctype html><html data-composition-id="main" data-width="160" data-height="90" data-duration="2"><head>
<script src="https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js"></script></head>
<body><div data-composition-src="parts/card.html" data-composition-id="card" data-start="0"></div></body></html>`;
const CHILD = '<!doctype html><html data-composition-id="card" data-width="40" data-height="40"><head></head><body></body></html>';
const FILES: Record<string, string> = { 'index.html': ENTRY, 'parts/card.html': CHILD, 'style.css': 'html { color: red; }' };

/** The rule with a composition held in memory (no packages, no fonts, no network). */
function memoryHost(): CompositionHost {
  return {
    async projectFile(path) {
      const text = FILES[path];
      if (text === undefined) return null;
      return {
        path,
        text: async () => text,
        respond: () => new Response(text, { headers: { 'content-type': path.endsWith('.css') ? 'text/css' : 'text/plain' } }),
      };
    },
    packageFile: async () => null,
    findFont: async () => null,
    fontFile: async () => null,
  };
}

const config = (html: string): Record<string, unknown> =>
  JSON.parse(/window\.__seekframeConfig=(.*?);<\/script>/.exec(html)![1]!) as Record<string, unknown>;

function api(compositionFiles: RenderApiOptions['compositionFiles']) {
  const composition: FileSource = { read: async (path) => (path in FILES ? { body: FILES[path]! } : null) };
  const runner: RenderRunner = { start: () => Promise.reject(new Error('no renders here')), cancel: async () => undefined };
  return createRenderApi({
    runner,
    jobs: createMemoryJobStore(),
    objects: {
      put: async () => ({ created: true }),
      get: async () => null,
      head: async () => null,
      delete: async () => undefined,
      url: () => null,
    },
    composition,
    answerMode: 'sync',
    ...(compositionFiles ? { compositionFiles } : {}),
  });
}

const rule = (base = PREVIEW_COMPOSITION_BASE) =>
  createCompositionFiles({
    host: memoryHost(),
    entry: 'index.html',
    base,
    prepareHtml: createRuntimeInjector({ runtimeSource: RUNTIME, mode: 'preview' }),
  });

describe('GET /preview/composition/*', () => {
  it('serves the files by the composition rule: the runtime in every HTML file, remote references through its route, the CSP', async () => {
    const app = api(rule());
    const entry = await app.request('/preview/composition/index.html');
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-security-policy')).toBe(PREVIEW_CSP);
    const html = await entry.text();
    expect(config(html)).toMatchObject({ mode: 'preview', composition: { id: 'main', width: 160 } });
    expect(html).toContain(
      `<script src="/preview/composition/__seekframe/remote?url=${encodeURIComponent('https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js')}">`,
    );
    const child = await (await app.request('/preview/composition/parts/card.html')).text();
    expect(config(child)).toMatchObject({ mode: 'preview', composition: { id: 'card' } });
    expect(await (await app.request('/preview/composition/style.css')).text()).toBe('html { color: red; }');
  });

  it('answers 404 not-found in the error shape for a missing file, and for a remote URL with no local copy asked for by a navigation', async () => {
    const app = api(rule());
    const missing = await app.request('/preview/composition/nope.css');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not-found');
    const link = await app.request(`/preview/composition/__seekframe/remote?url=${encodeURIComponent('https://example.test/x.js')}`, {
      headers: { 'sec-fetch-dest': 'document' },
    });
    expect(link.status).toBe(404);
  });

  it("sends a page's own request for a remote URL the composition names, with no local copy, to where it is (the browser loads it); no other URL", async () => {
    const gsap = 'https://cdn.jsdelivr.net/npm/gsap@3/dist/gsap.min.js';
    const answer = await api(rule()).request(`/preview/composition/__seekframe/remote?url=${encodeURIComponent(gsap)}`, {
      headers: { 'sec-fetch-dest': 'script' },
    });
    expect(answer.status).toBe(307);
    expect(answer.headers.get('location')).toBe(gsap);
    const madeUp = await api(rule()).request(
      `/preview/composition/__seekframe/remote?url=${encodeURIComponent('https://example.test/x.js')}`,
      { headers: { 'sec-fetch-dest': 'script' } },
    );
    expect([madeUp.status, madeUp.headers.get('location')]).toEqual([404, null]);
  });

  it('refuses a rule made for another base, and answers 404 without one', async () => {
    expect(() => api(rule('/elsewhere/'))).toThrow(/must be mounted at \/preview\/composition\//);
    expect((await api(undefined).request('/preview/composition/index.html')).status).toBe(404);
  });
});
