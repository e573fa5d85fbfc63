import type { TextBlock } from '@seekframe/runtime';
import { describe, expect, it } from 'vitest';
import { contrastFindings, contrastRatio, luminance, measureContrast } from './contrast-audit.js';

const SIZE = { width: 40, height: 10 };

/** An RGBA frame filled by `paint(x, y)`. */
function frame(paint: (x: number, y: number) => [number, number, number, number?]): Uint8Array {
  const rgba = new Uint8Array(SIZE.width * SIZE.height * 4);
  for (let y = 0; y < SIZE.height; y++)
    for (let x = 0; x < SIZE.width; x++) {
      const [r, g, b, a = 255] = paint(x, y);
      rgba.set([r, g, b, a], (y * SIZE.width + x) * 4);
    }
  return rgba;
}

function text(color: TextBlock['color'], extra: Partial<TextBlock> = {}): TextBlock {
  return {
    label: '<p#t>',
    selector: '#t',
    hosts: [],
    text: 'Fine print',
    lines: [{ x: 0, y: 0, width: 40, height: 10 }],
    fontSize: 16,
    fontWeight: 400,
    color,
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

/** Glyphs: every other column of the four middle rows (80 pixels). */
const glyph = (x: number, y: number): boolean => x % 2 === 0 && y >= 3 && y <= 6;

describe('WCAG contrast', () => {
  it('luminance and ratio follow WCAG 2 (black on white is 21:1, #777 on white about 4.48:1)', () => {
    expect(contrastRatio(luminance(0, 0, 0), luminance(255, 255, 255))).toBeCloseTo(21, 5);
    expect(contrastRatio(luminance(0x77, 0x77, 0x77), luminance(255, 255, 255))).toBeCloseTo(4.48, 2);
  });
});

describe('measureContrast', () => {
  it('compares the fill with the pixels behind its glyphs, in the frame captured with the text hidden', () => {
    const behind = frame(() => [0x14, 0x21, 0x3d]);
    const shown = frame((x, y) => (glyph(x, y) ? [0x4a, 0x55, 0x78] : [0x14, 0x21, 0x3d]));
    const sample = measureContrast(text([0x4a, 0x55, 0x78, 1]), shown, behind, SIZE, 1.5)!;
    expect(sample).toMatchObject({ required: 4.5, large: false, colour: '#4a5578', background: '#14213d', glyphPixels: 80 });
    expect(sample.ratio).toBeCloseTo(contrastRatio(luminance(0x4a, 0x55, 0x78), luminance(0x14, 0x21, 0x3d)), 2);
    const [finding] = contrastFindings([sample]);
    expect(finding).toMatchObject({
      code: 'contrast/low',
      severity: 'warning',
      time: { start: 1.5, end: 1.5 },
      region: { x: 0, y: 0, width: 40, height: 10 },
    });
    expect(finding!.message).toMatch(
      /^<p#t> \("Fine print"\) has contrast 2\.\d\d:1 against the pixels behind it at 1\.50 s \(its fill #4a5578 over #14213d\); WCAG AA asks 4\.5:1 for text\.$/,
    );
  });

  it('over a gradient, the ratio is what 90% of the glyph pixels reach: white text over a sky that turns white on its right third', () => {
    const sky = (x: number): [number, number, number] => (x < 27 ? [0x10, 0x20, 0x60] : [0xf0, 0xf0, 0xf0]);
    const behind = frame((x) => sky(x));
    const shown = frame((x, y) => (glyph(x, y) ? [255, 255, 255] : sky(x)));
    const sample = measureContrast(text([255, 255, 255, 1], { fontSize: 30 }), shown, behind, SIZE, 0)!;
    expect(sample.large).toBe(true);
    expect(sample.ratio).toBeLessThan(1.2);
    expect(contrastFindings([sample])).toHaveLength(1);
    // The same text over the dark part only passes.
    const dark = measureContrast(
      text([255, 255, 255, 1], { fontSize: 30, lines: [{ x: 0, y: 0, width: 24, height: 10 }] }),
      shown,
      behind,
      SIZE,
      0,
    )!;
    expect(dark.ratio).toBeGreaterThan(10);
    expect(contrastFindings([dark])).toEqual([]);
  });

  it('opacity is composited over the background; text the colour of its background is about 1:1', () => {
    const behind = frame(() => [0, 0, 0]);
    const faint = frame((x, y) => (glyph(x, y) ? [26, 26, 26] : [0, 0, 0]));
    const sample = measureContrast(text([255, 255, 255, 1], { opacity: 0.1 }), faint, behind, SIZE, 0)!;
    expect(sample.ratio).toBeLessThan(1.5);
    const same = measureContrast(text([0, 0, 0, 1]), behind, behind, SIZE, 0)!;
    expect(sample.glyphPixels).toBe(80);
    expect(same).toMatchObject({ ratio: 1, glyphPixels: 0 });
  });

  it('says nothing over transparent pixels, or for a fill that is not one colour', () => {
    const clear = frame(() => [0, 0, 0, 0]);
    expect(measureContrast(text([255, 255, 255, 1]), clear, clear, SIZE, 0)).toBeUndefined();
    const solid = frame(() => [0, 0, 0]);
    expect(measureContrast(text(null), solid, solid, SIZE, 0)).toBeUndefined();
  });
});
