import type { TextBlock } from '@seekframe/runtime';
import { describe, expect, it } from 'vitest';
import { layoutFindings } from './layout-audit.js';

const FRAME = { width: 640, height: 360 };

/** A block of text at rest: one line box per entry of `lines` ([x, y, width, height]). */
function block(selector: string, text: string, lines: number[][], extra: Partial<TextBlock> = {}): TextBlock {
  return {
    label: `<p${selector}>`,
    selector,
    hosts: [],
    text,
    lines: lines.map(([x, y, width, height]) => ({ x: x!, y: y!, width: width!, height: height! })),
    fontSize: 20,
    fontWeight: 400,
    color: [255, 255, 255, 1],
    opacity: 1,
    box: null,
    clip: null,
    truncates: false,
    rotated: false,
    covered: false,
    moving: false,
    ...extra,
  };
}

const codes = (texts: Map<number, TextBlock[]>) => layoutFindings(texts, FRAME).map((f) => [f.code, f.element?.selector]);

describe('layoutFindings', () => {
  it('text past the frame edge is cut; the worst time is reported, with the others', () => {
    const at1 = block('#h', 'Headline', [[500, 100, 180, 30]]);
    const at2 = block('#h', 'Headline', [[560, 100, 180, 30]]);
    const [finding, ...rest] = layoutFindings(
      new Map([
        [1, [at1]],
        [2, [at2]],
      ]),
      FRAME,
    );
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ code: 'layout/text-cut', severity: 'warning', time: { start: 2, end: 2 }, details: { right: 100 } });
    expect(finding!.message).toBe(
      '<p#h> ("Headline") is cut by the edge of the 640x360 frame at 2.00 s: 100 px past the right edge. Also at 1.00 s.',
    );
    expect(finding!.region).toEqual({ time: 2, x: 560, y: 100, width: 180, height: 30 });
  });

  it('text that slides in (moving), is faint, rotated or covered is not judged', () => {
    const out = [[600, 100, 180, 30]];
    for (const extra of [{ moving: true }, { opacity: 0.05 }, { rotated: true }, { covered: true }]) {
      expect(codes(new Map([[1, [block('#h', 'Headline', out, extra)]]]))).toEqual([]);
    }
  });

  it('text entirely outside the frame, or hidden by a clip, is not this audit’s business', () => {
    expect(codes(new Map([[1, [block('#h', 'Headline', [[700, 100, 180, 30]])]]]))).toEqual([]);
    const hidden = block('#digit', '7', [[100, 140, 20, 30]], { clip: { x: 100, y: 100, width: 20, height: 30 } });
    expect(codes(new Map([[1, [hidden]]]))).toEqual([]);
  });

  it('text past its box, or partly cut by a clipping ancestor; an ellipsis is meant', () => {
    const box = { x: 20, y: 20, width: 150, height: 40, label: '<div.card>', clips: false };
    const over = block('#t', 'A much too long title', [[26, 26, 240, 28]], { box });
    const [finding] = layoutFindings(new Map([[0.5, [over]]]), FRAME);
    expect(finding).toMatchObject({ code: 'layout/text-overflow', details: { right: 96, box: '<div.card>', clipped: false } });
    expect(finding!.message).toBe('<p#t> ("A much too long title") runs out of its box <div.card> at 0.50 s: 96 px past the right edge.');
    const cut = block('#t', 'A much too long title', [[26, 26, 240, 28]], { box: { ...box, clips: true }, clip: box });
    expect(layoutFindings(new Map([[0.5, [cut]]]), FRAME)[0]!.message).toContain('is cut by <div.card>, which clips it');
    expect(codes(new Map([[0.5, [{ ...cut, truncates: true }]]]))).toEqual([]);
  });

  it('a clip as big as the frame (a stage that clips) is the frame edge: text-cut, not overflow', () => {
    const staged = block('#h', 'Headline', [[560, 100, 180, 30]], { clip: { x: 0, y: 0, width: 640, height: 360 } });
    expect(codes(new Map([[1, [staged]]]))).toEqual([['layout/text-cut', '#h']]);
  });

  it('text over text, by the overlap of their glyph areas; a tight line-height or an echo is not', () => {
    const title = block('#title', 'Summer collection', [[80, 96, 400, 92]]);
    const sub = block('#sub', 'Light fabrics', [[84, 146, 300, 41]]);
    const [finding] = layoutFindings(new Map([[1, [title, sub]]]), FRAME);
    expect(finding).toMatchObject({
      code: 'layout/text-overlap',
      element: { selector: '#sub' },
      details: { other: { selector: '#title' } },
    });
    expect(finding!.message).toMatch(/^<p#sub> \("Light fabrics"\) and <p#title> \("Summer collection"\) overlap at 1.00 s: 300x\d+ px/);
    // Stacked lines whose line boxes touch by their leading only.
    const below = block('#sub', 'Light fabrics', [[84, 180, 300, 41]]);
    expect(codes(new Map([[1, [title, below]]]))).toEqual([]);
    // The same words twice: an echo.
    expect(codes(new Map([[1, [title, block('#echo', 'Summer collection', [[84, 100, 400, 92]])]]]))).toEqual([]);
  });
});
