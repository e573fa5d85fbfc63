import { z } from 'zod';
import { parseCaptionTrack } from './caption-track.js';

/**
 * Variable declarations: the JSON array in `data-composition-variables`.
 * One zod schema per type; the schema is also the type. Constraint checks on `default` carry a
 * `rule` param so `parseVariableDeclarations` can report them under a stable lint rule id.
 */

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** True for `#rrggbb` (either case). Shorthand `#rgb` and named colors are rejected on purpose:
 *  the renderer and the player must agree on one exact value. */
export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOR.test(value);
}

// The `.describe()` texts are the docs site's variable reference (generated from these schemas).
const base = {
  id: z
    .string()
    .min(1, 'must be a non-empty string')
    .describe('The name a page reads with `getVariables()` and a render sets with `--variables`; unique in the composition.'),
  label: z.string().min(1, 'must be a non-empty string').describe("What the preview's variables panel and the templates' forms show."),
  description: z.string().optional().describe('A longer explanation for people editing the value.'),
};

type Ctx = z.RefinementCtx;
function defaultIssue(ctx: Ctx, message: string): void {
  ctx.addIssue({ code: 'custom', path: ['default'], message, params: { rule: 'variables/default-type' } });
}

export const StringVariableSchema = z
  .object({
    ...base,
    type: z.literal('string').describe('The kind of variable.'),
    default: z.string().describe('The value when nothing overrides it; at most `maxLength` characters.'),
    placeholder: z.string().optional().describe("Hint text in the preview's input."),
    maxLength: z.number().int().positive().optional().describe('Longest value accepted, in characters.'),
  })
  .describe('Text.')
  .superRefine((v, ctx) => {
    if (v.maxLength !== undefined && v.maxLength > 0 && v.default.length > v.maxLength) {
      defaultIssue(ctx, `is ${v.default.length} characters long but maxLength is ${v.maxLength}; shorten it or raise maxLength`);
    }
  });

export const NumberVariableSchema = z
  .object({
    ...base,
    type: z.literal('number').describe('The kind of variable.'),
    default: z.number().describe('The value when nothing overrides it; within `min` and `max`.'),
    min: z.number().optional().describe('Smallest value accepted; not greater than `max`.'),
    max: z.number().optional().describe('Largest value accepted.'),
    step: z.number().positive().optional().describe("Step of the preview's number input."),
    unit: z.string().optional().describe('Unit shown next to the input (e.g. `px`, `s`).'),
  })
  .describe('A number.')
  .superRefine((v, ctx) => {
    if (v.min !== undefined && v.max !== undefined && v.min > v.max) {
      ctx.addIssue({ code: 'custom', path: ['min'], message: `min (${v.min}) is greater than max (${v.max}); swap them` });
      return;
    }
    if (v.min !== undefined && v.default < v.min) defaultIssue(ctx, `${v.default} is below min ${v.min}; use a value of at least ${v.min}`);
    if (v.max !== undefined && v.default > v.max) defaultIssue(ctx, `${v.default} is above max ${v.max}; use a value of at most ${v.max}`);
  });

export const ColorVariableSchema = z
  .object({
    ...base,
    type: z.literal('color').describe('The kind of variable.'),
    default: z
      .string()
      .regex(HEX_COLOR, 'must be a color written as #rrggbb, e.g. "#ff8800"')
      .describe('`#rrggbb` (either case); no shorthand or colour names.'),
  })
  .describe('A colour, always `#rrggbb`.');

export const BooleanVariableSchema = z
  .object({
    ...base,
    type: z.literal('boolean').describe('The kind of variable.'),
    default: z.boolean().describe('`true` or `false`.'),
  })
  .describe('On or off.');

export const EnumOptionSchema = z.object({
  value: z.union([z.string(), z.number()]).describe('The value a page receives; unique within the options.'),
  label: z.string().min(1, 'must be a non-empty string').describe("What the preview's select shows."),
});

export const EnumVariableSchema = z
  .object({
    ...base,
    type: z.literal('enum').describe('The kind of variable.'),
    default: z.union([z.string(), z.number()]).describe('One of the option values.'),
    options: z
      .array(EnumOptionSchema)
      .min(1, 'must list at least one {value, label} option')
      .describe('`[{value, label}]`, at least one, values unique.'),
  })
  .describe('One of a fixed list of values.')
  .superRefine((v, ctx) => {
    const seen = new Set<string | number>();
    v.options.forEach((option, i) => {
      if (seen.has(option.value)) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', i, 'value'],
          message: `repeats the value ${JSON.stringify(option.value)}; every option value must be unique`,
          params: { rule: 'variables/enum-duplicate-option' },
        });
      }
      seen.add(option.value);
    });
    if (v.options.length > 0 && !seen.has(v.default)) {
      defaultIssue(
        ctx,
        `${JSON.stringify(v.default)} is not one of the options (${[...seen].map((x) => JSON.stringify(x)).join(', ')}); pick one of them`,
      );
    }
  });

export const CaptionsVariableSchema = z
  .object({
    ...base,
    type: z.literal('captions').describe('The kind of variable.'),
    default: z
      .unknown()
      .refine((value) => value !== undefined, 'is required')
      .describe(
        'A transcript with word times, `[]` for none: `{segments:[{words:[{text,start,end}]}]}`, a flat `[{text,start,end}]` word list (seconds), or `@remotion/captions` `[{text,startMs,endMs}]` (see the Captions page).',
      ),
  })
  .describe('A caption track: a transcript with word times, shown by a `data-captions` element and written by `--captions`.')
  .superRefine((v, ctx) => {
    const result = parseCaptionTrack(v.default);
    if (!result.ok) for (const problem of result.problems) defaultIssue(ctx, `${problem.path ? `${problem.path} ` : ''}${problem.message}`);
  });

export const VariableDeclarationSchema = z.discriminatedUnion('type', [
  StringVariableSchema,
  NumberVariableSchema,
  ColorVariableSchema,
  BooleanVariableSchema,
  EnumVariableSchema,
  CaptionsVariableSchema,
]);

/** The whole array, ids unique. For callers that just want a yes/no; lint uses
 *  `parseVariableDeclarations` for per-field problems. */
export const VariableDeclarationsSchema = z.array(VariableDeclarationSchema).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((d, i) => {
    if (seen.has(d.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate variable id "${d.id}"` });
    seen.add(d.id);
  });
});

export type StringVariable = z.infer<typeof StringVariableSchema>;
export type NumberVariable = z.infer<typeof NumberVariableSchema>;
export type ColorVariable = z.infer<typeof ColorVariableSchema>;
export type BooleanVariable = z.infer<typeof BooleanVariableSchema>;
export type EnumVariable = z.infer<typeof EnumVariableSchema>;
export type CaptionsVariable = z.infer<typeof CaptionsVariableSchema>;
export type VariableDeclaration = z.infer<typeof VariableDeclarationSchema>;
export type VariableType = VariableDeclaration['type'];

export const VARIABLE_TYPES: readonly VariableType[] = ['string', 'number', 'color', 'boolean', 'enum', 'captions'];

export const VARIABLE_SCHEMAS = {
  string: StringVariableSchema,
  number: NumberVariableSchema,
  color: ColorVariableSchema,
  boolean: BooleanVariableSchema,
  enum: EnumVariableSchema,
  captions: CaptionsVariableSchema,
} as const;
