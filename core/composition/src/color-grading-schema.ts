// zod/mini, not classic zod: this schema runs in the page too (the runtime parses
// data-color-grading), and classic zod with its locales is ~450 kB of the runtime bundle, which
// every page of every render parses (~70 ms per page load).
import * as z from 'zod/mini';

/**
 * `data-color-grading`: one schema for lint, the runtime and the docs. Every field is optional in
 * the JSON; `effectiveGrading` fills in presets and defaults. Ranges live here and nowhere else.
 */

/** A number field: its range, its neutral default, and the variable types that may feed it. */
interface NumberField {
  kind: 'number';
  min: number;
  max: number;
  default: number;
  integer?: boolean;
}
interface ChoiceField {
  kind: 'choice';
  options: readonly string[];
  default: string;
}
interface ColorField {
  kind: 'color';
  default: string;
}
interface PathField {
  kind: 'path';
}
export type GradingField = NumberField | ChoiceField | ColorField | PathField;

export const COLOR_GRADING_PRESETS = ['neutral', 'warm', 'cool', 'cinematic', 'vintage', 'mono', 'punchy', 'faded'] as const;
export const COLOR_GRADING_SPACES = ['srgb', 'linear', 'rec709'] as const;
export type ColorGradingPreset = (typeof COLOR_GRADING_PRESETS)[number];
export type ColorGradingSpace = (typeof COLOR_GRADING_SPACES)[number];

const num = (min: number, max: number, def: number, integer = false): NumberField => ({ kind: 'number', min, max, default: def, integer });

/** The field table: group -> field -> rule. `top` holds the fields at the JSON's top level. */
export const COLOR_GRADING_FIELDS = {
  top: {
    preset: { kind: 'choice', options: COLOR_GRADING_PRESETS, default: 'neutral' },
    intensity: num(0, 1, 1),
    colorSpace: { kind: 'choice', options: COLOR_GRADING_SPACES, default: 'srgb' },
    lut: { kind: 'path' },
  },
  adjust: {
    exposure: num(-5, 5, 0),
    contrast: num(0, 2, 1),
    saturation: num(0, 2, 1),
    vibrance: num(-1, 1, 0),
    temperature: num(-1, 1, 0),
    tint: num(-1, 1, 0),
  },
  details: {
    vignette: num(0, 1, 0),
    vignetteFeather: num(0, 1, 0.5),
    vignetteColor: { kind: 'color', default: '#000000' },
    grain: num(0, 1, 0),
    grainSize: num(1, 8, 1),
  },
  effects: {
    blur: num(0, 100, 0),
    pixelate: num(0, 256, 0, true),
  },
} as const satisfies Record<string, Record<string, GradingField>>;

export type GradingGroup = 'adjust' | 'details' | 'effects';
export const GRADING_GROUPS: readonly GradingGroup[] = ['adjust', 'details', 'effects'];

const HEX = /^#[0-9a-fA-F]{6}$/;

function fieldSchema(field: GradingField): z.ZodMiniType {
  switch (field.kind) {
    case 'number': {
      const range = `must be a number from ${field.min} to ${field.max}`;
      const schema = z.number({ error: range }).check(z.gte(field.min, { error: range }), z.lte(field.max, { error: range }));
      return field.integer
        ? schema.check(z.refine(Number.isInteger, { error: `must be a whole number from ${field.min} to ${field.max}` }))
        : schema;
    }
    case 'choice':
      return z.enum(field.options as [string, ...string[]], { error: `must be one of ${field.options.join(', ')}` });
    case 'color':
      return z
        .string({ error: 'must be a colour written as #rrggbb' })
        .check(z.regex(HEX, { error: 'must be a colour written as #rrggbb' }));
    case 'path':
      return z
        .string({ error: 'must be the path of a .cube file in the project' })
        .check(z.regex(/\.cube$/i, { error: 'must be the path of a .cube file (a 3D LUT) in the project' }));
  }
}

const OBJECT = { error: 'must be a JSON object' };

function groupSchema(fields: Record<string, GradingField>) {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const [name, field] of Object.entries(fields)) shape[name] = z.optional(fieldSchema(field));
  return z.strictObject(shape, OBJECT);
}

/** The JSON after `$name` references were replaced by values; unknown names are errors. */
export const ColorGradingSchema = z.strictObject(
  {
    preset: z.optional(fieldSchema(COLOR_GRADING_FIELDS.top.preset)),
    intensity: z.optional(fieldSchema(COLOR_GRADING_FIELDS.top.intensity)),
    colorSpace: z.optional(fieldSchema(COLOR_GRADING_FIELDS.top.colorSpace)),
    lut: z.optional(fieldSchema(COLOR_GRADING_FIELDS.top.lut)),
    adjust: z.optional(groupSchema(COLOR_GRADING_FIELDS.adjust)),
    details: z.optional(groupSchema(COLOR_GRADING_FIELDS.details)),
    effects: z.optional(groupSchema(COLOR_GRADING_FIELDS.effects)),
  },
  OBJECT,
);

export interface ColorGrading {
  preset?: ColorGradingPreset;
  intensity?: number;
  colorSpace?: ColorGradingSpace;
  lut?: string;
  adjust?: Partial<Record<keyof typeof COLOR_GRADING_FIELDS.adjust, number>>;
  details?: Partial<Record<'vignette' | 'vignetteFeather' | 'grain' | 'grainSize', number>> & { vignetteColor?: string };
  effects?: Partial<Record<keyof typeof COLOR_GRADING_FIELDS.effects, number>>;
}

/** The field rule at a JSON path like ['adjust','exposure'] or ['preset'], or undefined. */
export function gradingFieldAt(path: readonly (string | number)[]): GradingField | undefined {
  if (path.length === 1) return (COLOR_GRADING_FIELDS.top as Record<string, GradingField>)[String(path[0])];
  if (path.length === 2 && GRADING_GROUPS.includes(path[0] as GradingGroup)) {
    return (COLOR_GRADING_FIELDS[path[0] as GradingGroup] as Record<string, GradingField>)[String(path[1])];
  }
  return undefined;
}

/** Which group a misplaced top-level name belongs in (`{"contrast":1.1}` -> "adjust"). */
export function groupOfField(name: string): GradingGroup | undefined {
  return GRADING_GROUPS.find((group) => name in COLOR_GRADING_FIELDS[group]);
}
