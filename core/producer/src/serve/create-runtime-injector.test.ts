import { describe, expect, it } from 'vitest';
import { createRuntimeInjector } from './create-runtime-injector.js';

const doc = (attrs: string, body = ''): string => `<!doctype html><html ${attrs}><head></head><body>${body}</body></html>`;
const config = (html: string): Record<string, unknown> => {
  const match = /window\.__seekframeConfig=(.*?);<\/script>/.exec(html);
  return JSON.parse(match![1]!) as Record<string, unknown>;
};

describe('createRuntimeInjector', () => {
  const inject = createRuntimeInjector({ runtimeSource: '/*runtime*/', variables: { title: 'Hi' }, seed: 7, fps: 10, epochMs: 1000 });

  it('gives each document its own compile-time metadata and only the entry the overrides', async () => {
    const entry = await inject(doc('data-composition-id="main" data-width="160" data-height="90" data-duration="2" data-fps="25"'), {
      file: 'index.html',
      isEntry: true,
    });
    expect(config(entry)).toMatchObject({
      mode: 'render',
      composition: { id: 'main', width: 160, height: 90, duration: 2, fps: 25 },
      variables: { title: 'Hi' },
      seed: 7,
      fps: 10,
      epochMs: 1000,
    });
    expect(entry).toContain('<script>/*runtime*/</script>');
    const child = await inject(doc('data-composition-id="card" data-width="40" data-height="40" data-duration="1"'), {
      file: 'parts/card.html',
      isEntry: false,
    });
    expect(config(child)).toMatchObject({ composition: { id: 'card', width: 40, height: 40, duration: 1 } });
    expect(config(child)).not.toHaveProperty('variables');
  });

  it('gives a plain embedded page the runtime as an embedded page, serves fragments as is, and refuses an entry that is no composition', async () => {
    const plain = '<html><head></head><body><img src="https://example.test/a.png"></body></html>';
    const served = await inject(plain, { file: 'widget.html', isEntry: false });
    expect(config(served)).toMatchObject({ mode: 'render', embedded: true, seed: 7, fps: 10, epochMs: 1000 });
    expect(config(served)).not.toHaveProperty('variables');
    const fragment = await inject('<p class="card">hi</p>', { file: 'part.html', isEntry: false });
    expect(fragment).toBe('<p class="card">hi</p>');
    await expect(async () => inject(plain, { file: 'index.html', isEntry: true })).rejects.toMatchObject({ code: 'invalid-composition' });
  });

  it('lets a child file (HyperFrames template) leave its length to its host', async () => {
    const child =
      '<!doctype html><html><body><template id="t"><div id="root" data-composition-id="card" data-width="160" data-height="90"></div></template></body></html>';
    expect(config(await inject(child, { file: 'card.html', isEntry: false }))).toMatchObject({
      composition: { id: 'card', width: 160, height: 90, duration: 0 },
    });
  });
});

describe('createRuntimeInjector with a lazily loaded runtime', () => {
  it('loads the bundle once, and tries again after a failed load', async () => {
    let calls = 0;
    const inject = createRuntimeInjector({
      runtimeSource: async () => {
        calls++;
        if (calls === 1) throw new Error('not built yet');
        return '/*late*/';
      },
    });
    const html = doc('data-composition-id="main" data-width="16" data-height="9" data-duration="1"');
    await expect(inject(html, { file: 'index.html', isEntry: true })).rejects.toThrow('not built yet');
    expect(await inject(html, { file: 'index.html', isEntry: true })).toContain('<script>/*late*/</script>');
    await inject(html, { file: 'index.html', isEntry: true });
    expect(calls).toBe(2);
  });
});
