import { z } from 'zod';

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

function fieldSchema(field: GradingField): z.ZodType {
  switch (field.kind) {
    case 'number': {
      const range = `must be a number from ${field.min} to ${field.max}`;
      let schema = z.number({ message: range }).min(field.min, range).max(field.max, range);
      if (field.integer) schema = schema.int(`must be a whole number from ${field.min} to ${field.max}`);
      return schema;
    }
    case 'choice':
      return z.enum(field.options as [string, ...string[]], { message: `must be one of ${field.options.join(', ')}` });
    case 'color':
      return z.string({ message: 'must be a colour written as #rrggbb' }).regex(HEX, 'must be a colour written as #rrggbb');
    case 'path':
      return z
        .string({ message: 'must be the path of a .cube file in the project' })
        .regex(/\.cube$/i, 'must be the path of a .cube file (a 3D LUT) in the project');
  }
}

function groupSchema(fields: Record<string, GradingField>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) shape[name] = fieldSchema(field).optional();
  return z.strictObject(shape);
}

/** The JSON after `$name` references were replaced by values; unknown names are errors. */
export const ColorGradingSchema = z.strictObject({
  preset: fieldSchema(COLOR_GRADING_FIELDS.top.preset).optional(),
  intensity: fieldSchema(COLOR_GRADING_FIELDS.top.intensity).optional(),
  colorSpace: fieldSchema(COLOR_GRADING_FIELDS.top.colorSpace).optional(),
  lut: fieldSchema(COLOR_GRADING_FIELDS.top.lut).optional(),
  adjust: groupSchema(COLOR_GRADING_FIELDS.adjust).optional(),
  details: groupSchema(COLOR_GRADING_FIELDS.details).optional(),
  effects: groupSchema(COLOR_GRADING_FIELDS.effects).optional(),
});

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
