import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

let fx: RuntimeFixture;

const TRANSCRIPT = [
  { text: 'Hello', start: 0.1, end: 0.5 },
  { text: 'world.', start: 0.5, end: 1 },
  { text: 'Again', start: 1.5, end: 2 },
];
const DECLARATIONS = JSON.stringify([{ id: 'transcript', type: 'captions', label: 'Captions', default: TRANSCRIPT }]);

beforeAll(async () => {
  fx = await startRuntimeFixture();
  fx.server.routes.set(
    '/captions.html',
    `<!doctype html><html data-composition-id="main" data-width="160" data-height="90" data-duration="4" data-composition-variables='${DECLARATIONS}'>
<head><style>body{margin:0}#cap{width:160px;font:14px sans-serif}</style></head>
<body><div id="cap" data-captions="transcript"></div><div id="bad" data-captions="nope"></div></body></html>`,
  );
});
afterAll(async () => fx?.close());

/** What the caption element holds after a seek: lines of "word:state" tokens. */
async function shownAt(page: Page, t: number): Promise<string> {
  return page.evaluate(async (time) => {
    await window.__seekframe!.seek(time);
    const lines = [...document.querySelectorAll('#cap .seekframe-caption-line')];
    return lines
      .map((line) =>
        [...line.querySelectorAll('span')]
          .map((span) => `${span.textContent}:${span.className.replace('seekframe-caption-word seekframe-word-', '')}`)
          .join(' '),
      )
      .join(' / ');
  }, t);
}

const TIMES = Array.from({ length: 75 }, (_, n) => n / 30);

describe('the caption element', () => {
  it('shows each frame as a function of its time alone: the same in preview and render, in any seek order', async () => {
    const preview = await openReady(fx, '/captions.html?mode=preview');
    const render = await openReady(fx, '/captions.html');
    const forward: string[] = [];
    for (const t of TIMES) forward.push(await shownAt(preview, t));
    // The render visits the frames backwards and jumps around: nothing it showed before leaks in.
    const backward: string[] = [];
    for (const t of [...TIMES].reverse()) backward.unshift(await shownAt(render, t));
    expect(backward).toEqual(forward);
    expect(await shownAt(render, 1.6)).toBe(forward[48]);
    expect(await shownAt(render, 0.2)).toBe(forward[6]);

    expect(forward[0]).toBe(''); // before the first word
    expect(forward[3]).toBe('Hello:active world.:upcoming'); // 0.1 s
    expect(forward[15]).toBe('Hello:spoken world.:active'); // 0.5 s: the next word starts on its frame
    expect(forward[30]).toBe(''); // 1.0 s: the first segment has ended
    expect(forward[45]).toBe('Again:active'); // 1.5 s: a new segment
    await preview.close();
    await render.close();
  });

  it('an element naming no variable is an error naming the element and the attribute', async () => {
    const page = await openReady(fx, '/captions.html');
    const errors = await page.evaluate(() => window.__seekframe!.errors());
    expect(errors).toEqual([
      expect.stringMatching(/<div#bad> in .*: data-captions="nope" names no variable of the composition \(variables: transcript\)/),
    ]);
    await page.close();
  });
});
