import { effectiveGrading, parseCubeLut, type ColorGrading, type CubeLut } from '@seekframe/composition';
import { describe, expect, it } from 'vitest';
import { gradePixels, grainNoise, isIdentity, linearToSrgb, srgbToLinear } from './grade-pixels.js';

/** Grades a w×h picture filled with one colour and returns its pixels as [r,g,b] triples. */
function grade(
  rgb: [number, number, number],
  grading: ColorGrading,
  opts: { w?: number; h?: number; lut?: CubeLut; seed?: number } = {},
): [number, number, number][] {
  const w = opts.w ?? 1;
  const h = opts.h ?? 1;
  const data = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) data.set([...rgb, 255], i * 4);
  gradePixels({ data, width: w, height: h, grading: effectiveGrading(grading), lut: opts.lut, grainSeed: opts.seed ?? 1 });
  return Array.from({ length: w * h }, (_, i) => [data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!]);
}
const one = (rgb: [number, number, number], grading: ColorGrading) => grade(rgb, grading)[0]!;

describe('gradePixels adjustments', () => {
  it('exposure +1 doubles linear light, -1 halves it', () => {
    const [r, g, b] = one([100, 60, 30], { adjust: { exposure: 1 } });
    for (const [out, inp] of [
      [r, 100],
      [g, 60],
      [b, 30],
    ] as const) {
      expect(srgbToLinear(out / 255)).toBeCloseTo(2 * srgbToLinear(inp / 255), 2);
    }
    const [half] = one([200, 200, 200], { adjust: { exposure: -1 } });
    expect(srgbToLinear(half / 255)).toBeCloseTo(srgbToLinear(200 / 255) / 2, 2);
  });

  it('saturation 0 gives grey (Rec.709 luma), 2 pushes channels apart', () => {
    const [r, g, b] = one([200, 80, 40], { adjust: { saturation: 0 } });
    expect(r).toBe(g);
    expect(g).toBe(b);
    expect(r).toBe(Math.round(0.2126 * 200 + 0.7152 * 80 + 0.0722 * 40));
    const vivid = one([150, 100, 100], { adjust: { saturation: 2 } });
    expect(vivid[0]).toBeGreaterThan(150);
    expect(vivid[1]).toBeLessThan(100);
  });

  it('temperature warm raises red and lowers blue; cool does the opposite; tint + lowers green', () => {
    const warm = one([128, 128, 128], { adjust: { temperature: 1 } });
    expect(warm).toEqual([160, 128, 96]);
    const cool = one([128, 128, 128], { adjust: { temperature: -1 } });
    expect(cool).toEqual([96, 128, 160]);
    expect(one([128, 128, 128], { adjust: { tint: 1 } })).toEqual([128, 96, 128]);
  });

  it('contrast scales around mid grey: 0 gives flat 128, 2 doubles the distance', () => {
    expect(one([40, 200, 128], { adjust: { contrast: 0 } })).toEqual([128, 128, 128]);
    expect(one([100, 150, 128], { adjust: { contrast: 2 } })).toEqual([73, 172, 128]); // pivot 127.5: 100 -> 72.5, 150 -> 172.5 (rounded half to even by the byte array);
  });

  it('vibrance lifts a muted colour more than a saturated one', () => {
    const muted = one([140, 120, 120], { adjust: { vibrance: 1 } });
    const strong = one([250, 20, 20], { adjust: { vibrance: 1 } });
    expect(muted[0] - 140).toBeGreaterThan(10);
    expect(strong[0] - 250).toBeLessThanOrEqual(5);
  });

  it('the working space changes where contrast acts: pivot 0.5 in sRGB, 0.18 linear light in linear', () => {
    const srgb = one([180, 180, 180], { adjust: { contrast: 1.5 } });
    const linear = one([180, 180, 180], { colorSpace: 'linear', adjust: { contrast: 1.5 } });
    expect(srgb[0]).toBe(Math.round((180 / 255 - 0.5) * 1.5 * 255 + 127.5));
    expect(linear[0]).not.toBe(srgb[0]);
    expect(one([0, 0, 0], { colorSpace: 'rec709' })).toEqual([0, 0, 0]);
    expect(one([77, 77, 77], { colorSpace: 'rec709', adjust: { exposure: 1 } })[0]).toBe(
      Math.round(linearToSrgb(2 * srgbToLinear(77 / 255)) * 255),
    );
  });
});

describe('presets and intensity', () => {
  it('mono is grey; intensity 0 leaves the picture alone; own fields replace the preset', () => {
    const [r, g, b] = one([200, 80, 40], { preset: 'mono' });
    expect(r === g && g === b).toBe(true);
    expect(one([200, 80, 40], { preset: 'mono', intensity: 0 })).toEqual([200, 80, 40]);
    const warmOwnTemp = one([128, 128, 128], { preset: 'warm', adjust: { temperature: 0, tint: 0, saturation: 1 } });
    expect(warmOwnTemp).toEqual([128, 128, 128]);
    expect(isIdentity(effectiveGrading({ preset: 'neutral' }), undefined)).toBe(true);
  });
});

describe('LUT, vignette, grain, blur, pixelate', () => {
  it('a LUT that swaps red and blue maps red to blue (trilinear between entries)', () => {
    const lines = ['LUT_3D_SIZE 2'];
    for (let b = 0; b < 2; b++) for (let g = 0; g < 2; g++) for (let r = 0; r < 2; r++) lines.push(`${b} ${g} ${r}`);
    const lut = parseCubeLut(lines.join('\n'));
    expect(grade([255, 0, 0], {}, { lut })[0]).toEqual([0, 0, 255]);
    expect(grade([200, 100, 50], {}, { lut })[0]).toEqual([50, 100, 200]);
  });

  it('vignette 1 paints corners in vignetteColor and keeps the centre', () => {
    const px = grade([100, 100, 100], { details: { vignette: 1, vignetteFeather: 0.5, vignetteColor: '#ff0000' } }, { w: 9, h: 9 });
    expect(px[0]).toEqual([255, 0, 0]);
    expect(px[40]).toEqual([100, 100, 100]);
  });

  it('grain is the same for the same seed and differs for another frame seed', () => {
    const a = grade([128, 128, 128], { details: { grain: 1 } }, { w: 8, h: 8, seed: 7 });
    const b = grade([128, 128, 128], { details: { grain: 1 } }, { w: 8, h: 8, seed: 7 });
    const c = grade([128, 128, 128], { details: { grain: 1 } }, { w: 8, h: 8, seed: 8 });
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(Math.max(...a.map((p) => Math.abs(p[0] - 128)))).toBeLessThanOrEqual(39);
    const sized = grade([128, 128, 128], { details: { grain: 1, grainSize: 4 } }, { w: 8, h: 8, seed: 7 });
    expect(sized[0]).toEqual(sized[3 * 8 + 3]); // one 4x4 cell
    expect(grainNoise(1, 2, 3)).toBeGreaterThanOrEqual(-1);
  });

  it('blur spreads a hard edge; pixelate averages blocks', () => {
    const w = 8;
    const data = new Uint8ClampedArray(w * 4);
    for (let x = 0; x < w; x++) data.set(x < 4 ? [0, 0, 0, 255] : [255, 255, 255, 255], x * 4);
    const blurred = new Uint8ClampedArray(data);
    gradePixels({ data: blurred, width: w, height: 1, grading: effectiveGrading({ effects: { blur: 2 } }), lut: undefined, grainSeed: 0 });
    expect(blurred[3 * 4]).toBeGreaterThan(40);
    expect(blurred[4 * 4]).toBeLessThan(215);
    const blocks = new Uint8ClampedArray(data);
    gradePixels({
      data: blocks,
      width: w,
      height: 1,
      grading: effectiveGrading({ effects: { pixelate: 8 } }),
      lut: undefined,
      grainSeed: 0,
    });
    expect(blocks[0]).toBe(128);
    expect(blocks[7 * 4]).toBe(128);
  });
});
