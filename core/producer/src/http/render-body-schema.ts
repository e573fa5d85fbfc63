import { z } from 'zod';
import { parseFrameSpan, parseStillAt } from '@seekframe/composition';
import { WebhookRequestSchema } from '../webhooks/webhook-request.js';

/**
 * The body of `POST /api/render`, the render API contract every HTTP face accepts (every deploy
 * template, the Lambda API; the render container takes it with the deployment's limits added).
 * Strict: an unknown field is refused, so a typo is never silently ignored. `variables` is checked
 * against the composition's declarations by the face (it knows the composition), not here.
 */
export const RENDER_FORMATS = ['mp4', 'webm', 'mov', 'gif'] as const;
export type RenderFormat = (typeof RENDER_FORMATS)[number];

export const RENDER_QUALITIES = ['draft', 'standard', 'high'] as const;
export type RenderQuality = (typeof RENDER_QUALITIES)[number];

/** The fields of the body, for a face that adds its own (`RenderBodySchema.extend`). */
export const RENDER_BODY_FIELDS = {
  variables: z
    .unknown()
    .optional()
    .describe(
      'Values of the composition\'s declared variables, by id: a JSON object like {"title":"Hi"}. Checked strictly against the declarations (GET /api/composition).',
    ),
  format: z
    .enum(RENDER_FORMATS, {
      // A folder format cannot be the one file this API answers with; say so rather than only "not one of".
      error: (issue) =>
        issue.input === 'hls' || issue.input === 'png-sequence'
          ? `${String(issue.input)} writes a folder of files (${issue.input === 'hls' ? 'a playlist and its segments' : 'one PNG a frame'}), and this API answers with one file; use one of ${RENDER_FORMATS.join(', ')}, or \`seekframe render --format ${String(issue.input)}\``
          : `must be one of ${RENDER_FORMATS.join(', ')}`,
    })
    .optional()
    .describe('The file to make; default mp4.'),
  quality: z
    .enum(RENDER_QUALITIES, { error: `must be one of ${RENDER_QUALITIES.join(', ')}` })
    .optional()
    .describe('Encoder quality preset; default standard.'),
  fps: z
    .number({ error: 'must be a whole number 1-240' })
    .int('must be a whole number 1-240')
    .min(1, 'must be 1-240')
    .max(240, 'must be 1-240')
    .optional()
    .describe("Frames per second; default the composition's own (data-fps, else 30)."),
  frames: z
    .union([z.string(), z.strictObject({ start: z.number(), end: z.number() })], {
      error: 'must be a string like "30-59" (or "45" for one frame) or an object like {"start":30,"end":59}',
    })
    .transform((value, ctx) => {
      const parsed = parseFrameSpan(value);
      if (parsed.ok) return parsed.span;
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    })
    // What it becomes, so a document made from this schema can describe the parsed body too.
    .pipe(z.object({ start: z.number().int(), end: z.number().int() }))
    .optional()
    .describe(
      'Only these composition frames, both included, at the render\'s fps: `"30-59"`, `"45"` or `{"start":30,"end":59}` (0 is the first frame). Frame k of the file is composition frame start + k; the sound is cut to the same times. Default: every frame. A span past the last frame is 400 `invalid-body` (field `frames`).',
    ),
  still: z
    .union([z.strictObject({ time: z.union([z.number(), z.string()]) }), z.strictObject({ frame: z.union([z.number(), z.string()]) })], {
      error: 'must be {"time": "1.5s"} (or 1.5, "1500ms") or {"frame": 45}',
    })
    .transform((value, ctx) => {
      const parsed = parseStillAt(value);
      if (parsed.ok) return parsed.value;
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    })
    .pipe(z.union([z.object({ time: z.number() }), z.object({ frame: z.number().int() })]))
    .optional()
    .describe(
      'A still instead of a video: `{"time": "1.5s"}` (also `1.5` or `"1500ms"`: the frame on screen then) or `{"frame": 45}` (0 is the first, at the render\'s fps). The file is a PNG (`image/png`), byte for byte that frame of a png-sequence render, with the page\'s transparency; `format` and `frames` are not given with it. A time or frame past the end is 400 `invalid-body` (field `still`).',
    ),
  html: z
    .string()
    .min(1, 'must be a whole HTML composition document')
    .optional()
    .describe(
      "A whole composition document to render instead of the deployment's own; only where the deployment allows custom HTML (else 403 custom-html-disabled).",
    ),
  webhook: WebhookRequestSchema.optional().describe("Where to post the render's signed events (render.started/progress/completed/failed)."),
};

export const RenderBodySchema = z.strictObject(RENDER_BODY_FIELDS, {
  error: (issue) =>
    issue.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.join(', ')}; allowed: ${Object.keys(RENDER_BODY_FIELDS).join(', ')}`
      : undefined,
});

export type RenderBody = z.output<typeof RenderBodySchema>;

/** Every problem of a body that failed the schema, one per field (`details.problems` of `invalid-body`). */
export function bodyProblems(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message }));
}
