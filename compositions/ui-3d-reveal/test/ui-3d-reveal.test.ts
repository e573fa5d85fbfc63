// End-to-end checks of the bundled showcase in real Chromium: declarations are valid, the page
// is error-free with or without variables, odd values are coerced, every variable changes the
// picture, nothing leaves the frame, and the timeline is a pure function of time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPOSITION_DIR,
  launchTestBrowser,
  openComposition,
  seek,
  type CompositionServer,
  type TestBrowser,
  serveComposition,
} from './serve-composition.js';

interface Declaration {
  id: string;
  type: string;
  label: string;
  default: unknown;
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number;
  options?: { value: string; label: string }[];
}

let server: CompositionServer;
let chrome: TestBrowser;

beforeAll(async () => {
  server = await serveComposition();
  chrome = await launchTestBrowser();
});
afterAll(async () => {
  await chrome?.close();
  await server?.close();
});

async function readRoot(): Promise<{ attrs: Record<string, string>; declarations: Declaration[] }> {
  const html = await readFile(join(COMPOSITION_DIR, 'index.html'), 'utf8');
  const tag = /<html\b[^>]*>/s.exec(html)?.[0] ?? '';
  const attrs: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w-]+)=(?:"([^"]*)"|'([^']*)')/g)) attrs[m[1]!] = m[2] ?? m[3] ?? '';
  return { attrs, declarations: JSON.parse(attrs['data-composition-variables'] ?? '[]') as Declaration[] };
}

describe('ui-3d-reveal declarations', () => {
  it('declares 1920x1080, 6 s at 30 fps and the required variables with valid defaults', async () => {
    const { attrs, declarations } = await readRoot();
    expect(attrs).toMatchObject({
      'data-composition-id': 'ui-3d-reveal',
      'data-width': '1920',
      'data-height': '1080',
      'data-duration': '6',
      'data-fps': '30',
    });
    const byId = new Map(declarations.map((d) => [d.id, d]));
    expect(byId.get('title')?.type).toBe('string');
    expect(byId.get('accentColor')?.type).toBe('color');
    expect(byId.get('theme')?.type).toBe('enum');
    expect(byId.get('showBadge')?.type).toBe('boolean');
    expect(byId.get('cardCount')).toMatchObject({ type: 'number', min: 1, max: 6, step: 1 });
    for (const d of declarations) {
      expect(d.label, d.id).toBeTruthy();
      if (d.type === 'string') {
        expect(typeof d.default).toBe('string');
        expect((d.default as string).length).toBeLessThanOrEqual(d.maxLength ?? Infinity);
      }
      if (d.type === 'color') expect(d.default).toMatch(/^#[0-9a-f]{6}$/);
      if (d.type === 'boolean') expect(typeof d.default).toBe('boolean');
      if (d.type === 'enum') expect(d.options?.map((o) => o.value)).toContain(d.default);
      if (d.type === 'number') {
        const n = d.default as number;
        expect(n).toBeGreaterThanOrEqual(d.min ?? -Infinity);
        expect(n).toBeLessThanOrEqual(d.max ?? Infinity);
        expect(Number.isInteger((n - (d.min ?? 0)) / (d.step ?? 1))).toBe(true);
      }
    }
  });
});

describe('ui-3d-reveal in Chromium', () => {
  it('loads without window.__seekframe, error-free, with one paused 6 s timeline', async () => {
    const { page, errors } = await openComposition(chrome.browser, server);
    const info = await page.evaluate(() => {
      const tl = (window as unknown as { __timelines: Record<string, { paused(): boolean; duration(): number }> }).__timelines[
        'ui-3d-reveal'
      ];
      return { paused: tl?.paused(), duration: tl?.duration(), cards: document.querySelectorAll('.card').length };
    });
    await seek(page, 3);
    await seek(page, 5.9);
    expect(info).toEqual({ paused: true, duration: 6, cards: 5 });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('coerces unexpected values and clamps cardCount', async () => {
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { title: 42, accentColor: 'red', theme: 'Sepia', showBadge: 'false', cardCount: 99 },
        { cards: 6, theme: 'dark', badge: 'none', title: '42', accent: '#7c5cff' },
      ],
      [
        { title: '   ', accentColor: '#ABC', theme: ' LIGHT ', showBadge: 0, cardCount: '0' },
        { cards: 1, theme: 'light', badge: 'none', title: 'Meet Seekframe', accent: '#aabbcc' },
      ],
      [
        { title: null, cardCount: '3.6', showBadge: 'yes', badgeText: 'v2 is here now!!!' },
        { cards: 4, theme: 'dark', badge: 'flex', title: 'Meet Seekframe', badgeText: 'v2 is here n' },
      ],
      [
        { title: 'x'.repeat(80), cardCount: -5, theme: 7 },
        { cards: 1, theme: 'dark', title: 'x'.repeat(32) },
      ],
    ];
    for (const [variables, expected] of cases) {
      const { page, errors } = await openComposition(chrome.browser, server, variables);
      const got = await page.evaluate(() => ({
        cards: document.querySelectorAll('.card').length,
        theme: (document.querySelector('.stage') as HTMLElement).dataset.theme,
        badge: getComputedStyle(document.querySelector('.badge')!).display,
        badgeText: document.querySelector('.badge-text')!.textContent,
        title: document.querySelector('.title')!.textContent,
        accent: (document.querySelector('.stage') as HTMLElement).style.getPropertyValue('--accent'),
      }));
      expect(got, JSON.stringify(variables)).toMatchObject(expected);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('survives a getVariables that throws or returns null', async () => {
    for (const body of ['null', '(() => { throw new Error("boom"); })()']) {
      const page = await chrome.browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.evaluateOnNewDocument(`window.__seekframe = { getVariables: () => ${body} };`);
      await page.goto(server.url(), { waitUntil: 'load' });
      const cards = await page.evaluate(() => document.querySelectorAll('.card').length);
      expect(cards).toBe(5);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('changes the end card visibly for every variable', async () => {
    const shot = async (variables?: Record<string, unknown>) => {
      const { page } = await openComposition(chrome.browser, server, variables);
      await seek(page, 5.9);
      const png = Buffer.from(await page.screenshot({ type: 'png' }));
      await page.close();
      return png;
    };
    const base = await shot();
    const overrides: Record<string, unknown>[] = [
      { title: 'Launch day' },
      { subtitle: 'Something else' },
      { accentColor: '#ff5a36' },
      { theme: 'light' },
      { theme: 'midnight' },
      { showBadge: false },
      { badgeText: 'v2' },
      { cardCount: 3 },
    ];
    for (const v of overrides) expect((await shot(v)).equals(base), JSON.stringify(v)).toBe(false);
  });

  it('keeps every card, the toast and the type inside the frame for 1..6 cards and maximal text', async () => {
    for (let cardCount = 1; cardCount <= 6; cardCount++) {
      const { page } = await openComposition(chrome.browser, server, {
        cardCount,
        title: 'W'.repeat(32),
        subtitle: 'M'.repeat(72),
      });
      await seek(page, 5.9);
      const boxes = await page.evaluate(() =>
        ['.card-face', '.toast', '.title', '.subtitle', '.badge'].flatMap((sel) =>
          Array.from(document.querySelectorAll(sel)).map((n) => {
            const r = n.getBoundingClientRect();
            return { sel, top: r.top, left: r.left, right: r.right, bottom: r.bottom };
          }),
        ),
      );
      // The boxes checked below really are there: one face per card, and the toast and type.
      const count = (sel: string): number => boxes.filter((b) => b.sel === sel).length;
      expect(count('.card-face'), `cards n=${cardCount}`).toBe(cardCount);
      expect([count('.toast'), count('.title'), count('.subtitle')], `n=${cardCount}`).toEqual([1, 1, 1]);
      for (const b of boxes) {
        expect(b.left, `${b.sel} n=${cardCount}`).toBeGreaterThanOrEqual(0);
        expect(b.top, `${b.sel} n=${cardCount}`).toBeGreaterThanOrEqual(0);
        expect(b.right, `${b.sel} n=${cardCount}`).toBeLessThanOrEqual(1920);
        expect(b.bottom, `${b.sel} n=${cardCount}`).toBeLessThanOrEqual(1080);
      }
      const subtitleBottom = boxes.find((b) => b.sel === '.subtitle')!.bottom;
      const deckTop = Math.min(...boxes.filter((b) => b.sel === '.card-face' || b.sel === '.toast').map((b) => b.top));
      expect(deckTop, `deck overlaps the subtitle with ${cardCount} cards`).toBeGreaterThan(subtitleBottom);
      await page.close();
    }
  });

  it('is a pure function of time: seek order does not matter and the end card holds from 5.5 s', async () => {
    const { page } = await openComposition(chrome.browser, server);
    // Inline styles and leaf text of every element, declarations sorted so order is irrelevant.
    const state = async (...times: number[]) => {
      for (const t of times) await seek(page, t);
      return page.evaluate(() =>
        Array.from(document.querySelectorAll('.stage *')).map((n) => {
          const style = (n.getAttribute('style') ?? '')
            .split(';')
            .map((s) => s.trim())
            .filter(Boolean)
            .sort();
          return `${n.className}|${style.join(';')}|${n.children.length ? '' : n.textContent}`;
        }),
      );
    };
    for (const t of [0.4, 1.1, 2, 2.6, 3.3, 4.4, 5.2]) {
      const direct = await state(t);
      expect(await state(5.9, 0.2, t), `t=${t}`).toEqual(direct);
      expect(await state(0, t / 2, t), `t=${t}`).toEqual(direct);
    }
    const end = await state(5.5);
    expect(await state(5.9)).toEqual(end);
    expect(await state(6)).toEqual(end);
    expect(await state(0)).not.toEqual(end);
    await page.close();
  });
});
