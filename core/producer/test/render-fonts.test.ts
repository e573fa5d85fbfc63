import { copyFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launchBrowser, openCapturePage, findBrowser, type BrowserSession } from '@seekframe/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createProjectServer, createRuntimeInjector, renderComposition, type RenderEvent } from '../src/index.js';
import { loadRuntimeSource } from '../src/serve/load-runtime-source.js';
import { decodeFrames } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

/**
 * Fonts resolve to the @fontsource packages installed with the renderer, with the page's network
 * closed (`network: 'sandboxed'`: the browser reaches only the project server). Reference pages
 * load the same woff2 files through a plain local @font-face, copied into the project.
 */
const require = createRequire(import.meta.url);
const fontFile = (pkg: string, name: string): string =>
  path.join(path.dirname(require.resolve(`@fontsource/${pkg}/package.json`)), 'files', name);

const TEXT = 'Hamburgefonstiv 0123';
const W = 320;
const H = 90;

let project: Awaited<ReturnType<typeof tempProject>>;

const page = (head: string, body: string): string =>
  composition({ width: W, height: H, duration: 0.1, fps: 10, head: `<style>body{color:#fff}</style>${head}`, body });

const twoFamilies = (head: string, first = 'Inter', second = 'Roboto'): string =>
  page(
    head,
    `<div style="position:absolute;left:4px;top:4px;font:700 28px/1 ${first}">${TEXT}</div>` +
      `<div style="position:absolute;left:4px;top:48px;font:400 28px/1 ${second}">${TEXT}</div>`,
  );

const measured = (family: string, head = ''): string =>
  page(head, `<span id="probe" style="font-family:${family};font-size:40px;white-space:nowrap">${TEXT}</span>`);

const localFace = (family: string, file: string, weight = 400): string =>
  `<style>@font-face{font-family:'${family}';font-style:normal;font-weight:${weight};src:url('${file}') format('woff2')}</style>`;

const LATIN = (require('@fontsource/inter/unicode.json') as Record<string, string>).latin!;
const gstaticFace = (family: string, weight: number): string =>
  `/* latin */\n@font-face {\n  font-family: '${family}';\n  font-style: normal;\n  font-weight: ${weight};\n  font-display: swap;\n` +
  `  src: url(https://fonts.gstatic.com/s/${family.toLowerCase()}/v20/UcC73FwrK3iLTeHuS_nVMrMxCp50SjIa1ZL7.woff2) format('woff2');\n  unicode-range: ${LATIN.replace(/,/g, ', ')};\n}`;

const realFetch = globalThis.fetch;

beforeAll(async () => {
  // Node-side fetches (the project server's remote route) may only reach loopback: fonts must never come from the network.
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return /^http:\/\/127\.0\.0\.1[:/]/.test(url) ? realFetch(input, init) : Promise.reject(new Error(`network used: ${url}`));
  });
  project = await tempProject({
    // Google's own embed snippet, preconnects included.
    'google/index.html': twoFamilies(
      '<link rel="preconnect" href="https://fonts.googleapis.com"><link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>' +
        '<link href="https://fonts.googleapis.com/css2?family=Inter:wght@400;700&family=Roboto&display=swap" rel="stylesheet">',
    ),
    'imported/index.html': twoFamilies(
      `<style>@import url('https://fonts.googleapis.com/css2?family=Inter:wght@700&family=Roboto:wght@400&display=swap');</style>`,
    ),
    // Google's CSS pasted into the page: the faces' files are on fonts.gstatic.com, which the page cannot reach.
    'pasted/index.html': twoFamilies(`<style>${gstaticFace('Inter', 700)}\n${gstaticFace('Roboto', 400)}</style>`),
    'local/index.html': twoFamilies(localFace('Inter', 'inter-700.woff2', 700) + localFace('Roboto', 'roboto-400.woff2')),
    // Generic families only: whatever the machine has (named families would be resolved locally).
    'fallback/index.html': twoFamilies('', 'sans-serif', 'serif'),
    'unknown/index.html': page('', `<div style="font-family:'Seekframe Missing Sans', sans-serif">${TEXT}</div>`),
    'measure/named.html': measured('Montserrat, sans-serif'),
    'measure/explicit.html': measured("'Local Montserrat'", localFace('Local Montserrat', 'montserrat-400.woff2')),
    'measure/fallback.html': measured("'Seekframe Missing Sans', sans-serif"),
    // HyperFrames format: the host loads Inter from Google Fonts, the child file (content in <template>) names it.
    'measure/host.html': composition({
      width: W,
      height: H,
      duration: 0.1,
      head: '<link rel="stylesheet" href="https://fonts.googleapis.com/css2?family=Inter:wght@700">',
      body: `<div data-composition-id="card" data-composition-src="card.html" data-start="0" data-duration="0.1" style="position:absolute;left:0;top:0;width:${W}px;height:${H}px"></div>`,
    }),
    'measure/card.html': `<!doctype html><html><body><template id="card-template"><div data-composition-id="card" data-width="${W}" data-height="${H}"><style>#probe { font: 700 30px Inter, sans-serif; color: #fff }</style><span id="probe">${TEXT}</span></div></template></body></html>`,
    'measure/arial.html': measured('Arial, sans-serif'),
    'measure/arimo.html': measured("'Local Arimo'", localFace('Local Arimo', 'arimo-400.woff2')),
  });
  await copyFile(fontFile('inter', 'inter-latin-700-normal.woff2'), path.join(project.dir, 'local', 'inter-700.woff2'));
  await copyFile(fontFile('roboto', 'roboto-latin-400-normal.woff2'), path.join(project.dir, 'local', 'roboto-400.woff2'));
  await copyFile(fontFile('montserrat', 'montserrat-latin-400-normal.woff2'), path.join(project.dir, 'measure', 'montserrat-400.woff2'));
  await copyFile(fontFile('arimo', 'arimo-latin-400-normal.woff2'), path.join(project.dir, 'measure', 'arimo-400.woff2'));
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await project?.cleanup();
});

async function renderFrame(name: string, events: RenderEvent[] = []): Promise<Buffer> {
  const output = path.join(project.dir, 'out', name);
  await renderComposition(
    { projectDir: path.join(project.dir, name), output, format: 'png-sequence', workers: 1, network: 'sandboxed' },
    (e) => events.push(e),
  );
  const frames = (await readdir(output)).filter((f) => f.endsWith('.png')).sort();
  expect(frames).toHaveLength(1);
  const [frame] = await decodeFrames(path.join(output, frames[0]!), W, H);
  return frame!;
}

describe('Google Fonts links', () => {
  it('render with the same pixels as a local @font-face of the same @fontsource files, offline', async () => {
    const events: RenderEvent[] = [];
    const google = await renderFrame('google', events);
    const local = await renderFrame('local');
    const fallback = await renderFrame('fallback');
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(google.equals(local), 'Google Fonts link and local @font-face give identical pixels').toBe(true);
    expect((await renderFrame('imported')).equals(local), 'a Google Fonts @import in <style>').toBe(true);
    expect((await renderFrame('pasted')).equals(local), 'Google CSS pasted with fonts.gstatic.com files').toBe(true);
    expect(google.equals(fallback), 'and they differ from the machine fallback, so the fonts really loaded').toBe(false);
  });
});

describe('an unresolvable family', () => {
  it('renders with the fallback and warns exactly once, naming the family and the install command', async () => {
    const events: RenderEvent[] = [];
    await renderFrame('unknown', events);
    const warnings = events.filter((e) => e.type === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'lint/fonts/unresolved-family' });
    expect((warnings[0] as { message: string }).message).toContain('"Seekframe Missing Sans"');
    expect((warnings[0] as { message: string }).message).toContain('npm i @fontsource/seekframe-missing-sans');
  });
});

describe('families named in CSS only', () => {
  let session: BrowserSession;
  let server: Awaited<ReturnType<typeof createProjectServer>>;
  beforeAll(async () => {
    const root = path.join(project.dir, 'measure');
    server = await createProjectServer({
      root,
      entry: 'named.html',
      prepareHtml: createRuntimeInjector({ runtimeSource: await loadRuntimeSource(), mode: 'render' }),
    });
    session = await launchBrowser({ browser: await findBrowser(), mode: 'screenshot', width: W, height: H });
  });
  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  /** The probe's width and the faces Chromium really drew it with (CSS.getPlatformFontsForNode). */
  async function measure(file: string): Promise<{ width: number; fonts: { familyName: string; isCustomFont: boolean }[] }> {
    const capture = await openCapturePage(session, {
      url: `${server.origin}/${file}`,
      width: W,
      height: H,
      mode: 'screenshot',
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 30_000,
    });
    try {
      const width = await capture.page.evaluate(() => document.getElementById('probe')!.getBoundingClientRect().width);
      const cdp = await capture.page.createCDPSession();
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument');
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '#probe' });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      return { width, fonts: fonts.map((f) => ({ familyName: f.familyName, isCustomFont: f.isCustomFont })) };
    } finally {
      await capture.close();
    }
  }

  it('font-family: Montserrat draws with the Montserrat package', async () => {
    const named = await measure('named.html');
    const explicit = await measure('explicit.html');
    const fallback = await measure('fallback.html');
    // The family name inside @fontsource's static files is that of the variable master they were cut from.
    expect(named.fonts).toEqual(explicit.fonts);
    expect(named.fonts).toEqual([{ familyName: expect.stringMatching(/^Montserrat/), isCustomFont: true }]);
    expect(named.width).toBeCloseTo(explicit.width, 2);
    expect(Math.abs(named.width - fallback.width)).toBeGreaterThan(5);
  });

  it('a family named inside a <template> sub-composition file draws with the local face', async () => {
    const capture = await openCapturePage(session, {
      url: `${server.origin}/host.html`,
      width: W,
      height: H,
      mode: 'screenshot',
      imageFormat: 'png',
      transparent: false,
      readyTimeoutMs: 30_000,
    });
    try {
      const cdp = await capture.page.createCDPSession();
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      // Clips show only once the page is seeked into their interval.
      await capture.page.evaluate(() => (window as unknown as { __seekframe: { seek(t: number): Promise<void> } }).__seekframe.seek(0.05));
      const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
      type DomNode = { nodeName: string; contentDocument?: DomNode; children?: DomNode[]; nodeId: number };
      const childDocument = (node: DomNode): DomNode | undefined => node.contentDocument ?? node.children?.map(childDocument).find(Boolean);
      const child = childDocument(root as DomNode);
      expect(child, 'the sub-composition iframe').toBeDefined();
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: child!.nodeId, selector: '#probe' });
      expect(nodeId, 'the template content was instantiated').toBeGreaterThan(0);
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      expect(fonts.map((f) => ({ familyName: f.familyName, isCustomFont: f.isCustomFont }))).toEqual([
        { familyName: expect.stringMatching(/^Inter/), isCustomFont: true },
      ]);
    } finally {
      await capture.close();
    }
  });

  it('font-family: Arial draws with Arimo, its metric-compatible face', async () => {
    const arial = await measure('arial.html');
    const arimo = await measure('arimo.html');
    expect(arial.fonts).toEqual(arimo.fonts);
    expect(arial.fonts).toEqual([{ familyName: expect.stringMatching(/^Arimo/), isCustomFont: true }]);
    expect(arial.width).toBeCloseTo(arimo.width, 2);
  });
});
