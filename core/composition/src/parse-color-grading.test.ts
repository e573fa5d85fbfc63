import { describe, expect, test } from 'vitest';
import { effectiveGrading } from './color-grading-presets.js';
import { parseColorGrading, variableReference, type ReferenceLookup } from './parse-color-grading.js';

const vars =
  (values: Record<string, unknown>): ReferenceLookup =>
  (name) =>
    name in values ? { value: values[name] } : undefined;

test('variableReference: only a whole-value $name or ${name} is a reference', () => {
  expect(variableReference('$warmth')).toBe('warmth');
  expect(variableReference('${brand-color}')).toBe('brand-color');
  expect(variableReference('$warmth + 1')).toBeUndefined();
  expect(variableReference('price $5')).toBeUndefined();
  expect(variableReference('${unclosed')).toBeUndefined();
  expect(variableReference(3)).toBeUndefined();
});

describe('parseColorGrading', () => {
  test('a full grading parses; references take the given values', () => {
    const text = JSON.stringify({
      preset: '$look',
      intensity: 0.5,
      colorSpace: 'linear',
      lut: 'luts/film.cube',
      adjust: { exposure: '${ev}', contrast: 1.1, saturation: 0.9, vibrance: 0.2, temperature: 0.3, tint: -0.1 },
      details: { vignette: 0.4, vignetteFeather: 0.6, vignetteColor: '$accent', grain: 0.1, grainSize: 2 },
      effects: { blur: 1.5, pixelate: 4 },
    });
    const { grading, problems } = parseColorGrading(text, vars({ look: 'cinematic', ev: 0.5, accent: '#112233' }));
    expect(problems).toEqual([]);
    expect(grading?.preset).toBe('cinematic');
    expect(grading?.adjust?.exposure).toBe(0.5);
    expect(effectiveGrading(grading!).vignetteColor).toEqual([0x11, 0x22, 0x33]);
  });

  test('unknown names, out-of-range values, bad types and bad references are problems with paths', () => {
    const text = JSON.stringify({
      contrast: 1.1,
      adjust: { exposure: 9, satur: 1 },
      preset: 'sepia',
      details: { grain: '$missing' },
      effects: { blur: '$word' },
    });
    const { grading, problems } = parseColorGrading(text, vars({ word: 'soft' }));
    expect(grading).toBeUndefined();
    const byPath = Object.fromEntries(problems.map((p) => [p.path.join('.'), p]));
    expect(byPath['contrast']?.message).toContain('belongs inside "adjust"');
    expect(byPath['adjust.satur']?.kind).toBe('unknown-field');
    expect(byPath['adjust.exposure']?.message).toContain('from -5 to 5');
    expect(byPath['preset']?.message).toContain('neutral, warm, cool, cinematic, vintage, mono');
    expect(byPath['details.grain']?.kind).toBe('undeclared-reference');
    expect(byPath['effects.blur']?.kind).toBe('reference-type');
  });

  test('a variable value out of range names the variable', () => {
    const { problems } = parseColorGrading('{"adjust":{"exposure":"$ev"}}', vars({ ev: 12 }));
    expect(problems[0]?.message).toContain('the value of variable "ev" is 12');
  });

  test('not JSON, not an object', () => {
    expect(parseColorGrading('{', vars({})).problems[0]?.kind).toBe('json');
    expect(parseColorGrading('[1]', vars({})).problems[0]?.kind).toBe('invalid-field');
  });
});

describe('effectiveGrading', () => {
  test('defaults are neutral; presets scale with intensity; own fields replace the preset', () => {
    const none = effectiveGrading({});
    expect([none.exposure, none.contrast, none.saturation, none.vignetteFeather, none.grainSize, none.colorSpace]).toEqual([
      0,
      1,
      1,
      0.5,
      1,
      'srgb',
    ]);
    expect(effectiveGrading({ preset: 'warm' }).temperature).toBeCloseTo(0.35);
    expect(effectiveGrading({ preset: 'warm', intensity: 0.5 }).temperature).toBeCloseTo(0.175);
    expect(effectiveGrading({ preset: 'mono', intensity: 0.5 }).saturation).toBeCloseTo(0.5);
    expect(effectiveGrading({ preset: 'warm', intensity: 0.5, adjust: { temperature: -1 } }).temperature).toBe(-1);
  });
});
