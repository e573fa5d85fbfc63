import { COLOR_GRADING_FIELDS, type ColorGrading, type ColorGradingPreset, type ColorGradingSpace } from './color-grading-schema.js';

type Adjust = Record<keyof typeof COLOR_GRADING_FIELDS.adjust, number>;
type DetailNumbers = Record<'vignette' | 'vignetteFeather' | 'grain' | 'grainSize', number>;
type PresetValues = Partial<Adjust> & Partial<DetailNumbers>;

/**
 * What each preset sets at intensity 1. Fields a preset does not name stay neutral. These numbers
 * are the documentation: docs/pending/color-grading.md repeats them exactly.
 */
export const COLOR_GRADING_PRESET_VALUES: Record<ColorGradingPreset, PresetValues> = {
  neutral: {},
  warm: { temperature: 0.35, tint: 0.05, saturation: 1.05 },
  cool: { temperature: -0.35, tint: -0.05 },
  cinematic: { contrast: 1.15, saturation: 0.85, temperature: -0.1, vignette: 0.3 },
  vintage: { contrast: 0.85, saturation: 0.7, temperature: 0.25, vignette: 0.35, grain: 0.2 },
  mono: { saturation: 0, contrast: 1.1 },
  punchy: { contrast: 1.2, saturation: 1.1, vibrance: 0.4 },
  faded: { exposure: 0.15, contrast: 0.75, saturation: 0.8 },
};

/** Every value the pixel pass needs, defaults and preset applied. */
export interface EffectiveGrading extends Adjust, DetailNumbers {
  colorSpace: ColorGradingSpace;
  vignetteColor: [number, number, number];
  blur: number;
  pixelate: number;
  lut: string | undefined;
}

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/**
 * Preset values are blended from neutral by `intensity` (0 = neutral, 1 = the preset as listed);
 * a field the author sets in `adjust`/`details` replaces the preset's value for that field and is
 * not scaled by intensity.
 */
export function effectiveGrading(grading: ColorGrading): EffectiveGrading {
  const preset = COLOR_GRADING_PRESET_VALUES[grading.preset ?? 'neutral'];
  const intensity = grading.intensity ?? COLOR_GRADING_FIELDS.top.intensity.default;
  const pick = <K extends keyof PresetValues>(
    key: K,
    group: Record<string, number | string | undefined> | undefined,
    def: number,
  ): number => {
    const own = group?.[key];
    if (typeof own === 'number') return own;
    const fromPreset = preset[key];
    return fromPreset === undefined ? def : def + (fromPreset - def) * intensity;
  };
  const a = COLOR_GRADING_FIELDS.adjust;
  const d = COLOR_GRADING_FIELDS.details;
  const e = COLOR_GRADING_FIELDS.effects;
  return {
    colorSpace: grading.colorSpace ?? 'srgb',
    exposure: pick('exposure', grading.adjust, a.exposure.default),
    contrast: pick('contrast', grading.adjust, a.contrast.default),
    saturation: pick('saturation', grading.adjust, a.saturation.default),
    vibrance: pick('vibrance', grading.adjust, a.vibrance.default),
    temperature: pick('temperature', grading.adjust, a.temperature.default),
    tint: pick('tint', grading.adjust, a.tint.default),
    vignette: pick('vignette', grading.details, d.vignette.default),
    vignetteFeather: pick('vignetteFeather', grading.details, d.vignetteFeather.default),
    grain: pick('grain', grading.details, d.grain.default),
    grainSize: pick('grainSize', grading.details, d.grainSize.default),
    vignetteColor: hexToRgb(grading.details?.vignetteColor ?? d.vignetteColor.default),
    blur: grading.effects?.blur ?? e.blur.default,
    pixelate: grading.effects?.pixelate ?? e.pixelate.default,
    lut: grading.lut,
  };
}
