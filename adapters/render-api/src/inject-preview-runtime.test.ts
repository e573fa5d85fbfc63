import { describe, expect, it } from 'vitest';
import { isRuntimeInjected } from '@seekframe/runtime/inject';
import { createRenderApi } from './create-render-api.js';
import { injectPreviewRuntime } from './inject-preview-runtime.js';
import { createMemoryJobStore } from './memory-job-store.js';
import type { FileSource, RenderRunner } from './ports.js';

const RUNTIME = '/*runtime*/';
const doc = (attrs: string, body = ''): string => `<!doctype html><html ${attrs}><head></head><body>${body}</body></html>`;
const config = (html: string): Record<string, unknown> => {
  const match = /window\.__seekframeConfig=(.*?);<\/script>/.exec(html);
  if (!match) throw new Error(`no injected config in ${html}`);
  return JSON.parse(match[1]!) as Record<string, unknown>;
};

const ENTRY = doc(
  `data-composition-id="main" data-width="160" data-height="90" data-duration="2" data-fps="25" data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"a"}]'`,
  '<div data-composition-src="parts/card.html" data-composition-id="card" data-start="0"></div>',
);
const CHILD = doc('data-composition-id="card" data-width="40" data-height="40"');

describe('injectPreviewRuntime', () => {
  it('gives the entry its metadata and declarations in preview mode, and no overrides', () => {
    const html = injectPreviewRuntime(ENTRY, 'index.html', RUNTIME);
    expect(isRuntimeInjected(html)).toBe(true);
    expect(html).toContain(`<script>${RUNTIME}</script>`);
    expect(config(html)).toEqual({
      mode: 'preview',
      composition: { id: 'main', width: 160, height: 90, duration: 2, fps: 25 },
      declarations: [{ id: 'title', type: 'string', label: 'Title', default: 'a' }],
    });
  });

  it('gives another composition file role child metadata (its host may decide its length)', () => {
    expect(config(injectPreviewRuntime(CHILD, 'parts/card.html', RUNTIME))).toEqual({
      mode: 'preview',
      composition: { id: 'card', width: 40, height: 40, duration: 0 },
      declarations: [],
    });
    // A HyperFrames-style child: the root inside a <template>.
    const template = '<!doctype html><html><body><template id="t"><div data-composition-id="t1" data-width="160" data-height="90"></div></template></body></html>';
    expect(config(injectPreviewRuntime(template, 'parts/t.html', RUNTIME))).toMatchObject({ mode: 'preview', composition: { id: 't1', width: 160, height: 90, duration: 0 } });
  });

  it('gives a plain embedded page the clock-only runtime, serves fragments and a broken entry as they are', () => {
    const plain = '<html><head></head><body><canvas></canvas></body></html>';
    expect(config(injectPreviewRuntime(plain, 'widget.html', RUNTIME))).toMatchObject({ mode: 'preview', embedded: true });
    expect(injectPreviewRuntime('<p class="card">hi</p>', 'part.html', RUNTIME)).toBe('<p class="card">hi</p>');
    // The player reports a broken entry itself (invalid-composition), as it always did.
    expect(injectPreviewRuntime(plain, 'index.html', RUNTIME)).toBe(plain);
  });
});

describe('GET /preview/composition/*', () => {
  const files: Record<string, string> = { 'index.html': ENTRY, 'parts/card.html': CHILD, 'style.css': 'html { color: red; }' };
  const composition: FileSource = { read: async (path) => (path in files ? { body: files[path]! } : null) };
  const runner: RenderRunner = { start: () => Promise.reject(new Error('no renders here')), cancel: async () => undefined };
  const api = (assets: Record<string, string>) =>
    createRenderApi({
      runner,
      jobs: createMemoryJobStore(),
      objects: { put: async () => ({ created: true }), get: async () => null, head: async () => null, delete: async () => undefined, url: () => null },
      composition,
      answerMode: 'sync',
      previewAssets: { read: async (name) => (name in assets ? { body: assets[name]! } : null) },
    });

  it('serves every HTML file with the runtime from the preview assets, other files unchanged', async () => {
    const app = api({ 'seekframe-runtime.js': RUNTIME });
    const entry = await app.request('/preview/composition/index.html');
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(config(await entry.text())).toMatchObject({ mode: 'preview', composition: { id: 'main' } });
    const child = await (await app.request('/preview/composition/parts/card.html')).text();
    expect(config(child)).toMatchObject({ mode: 'preview', composition: { id: 'card' } });
    expect(child).toContain(`<script>${RUNTIME}</script>`);
    expect(await (await app.request('/preview/composition/style.css')).text()).toBe('html { color: red; }');
  });

  it('answers bundle-missing, naming the asset and the fix, when the preview assets lack the runtime', async () => {
    const answer = await api({}).request('/preview/composition/index.html');
    expect(answer.status).toBe(500);
    const { error } = (await answer.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('bundle-missing');
    expect(error.message).toContain('seekframe-runtime.js');
    expect(error.message).toContain('npm run build -w @seekframe/runtime');
  });
});
