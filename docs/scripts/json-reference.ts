import { z } from 'zod';
import { CHECK_EXIT_CLEAN, CHECK_EXIT_FINDINGS, CHECK_EXIT_NOT_RUN, CHECK_EXIT_USAGE, CheckReportSchema, RenderReportSchema } from 'seekframe';
import { generatedNotice } from './generated-notice.js';
import { cell } from './markdown-table.js';

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
}

interface Row {
  field: string;
  value: string;
  meaning: string;
}

/** The non-null member of `X | null`, and whether null is allowed. */
function unwrap(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const members = schema.anyOf?.filter((member) => member.type !== 'null');
  if (schema.anyOf && members?.length === 1) return { schema: { ...members[0]!, description: schema.description ?? members[0]!.description }, nullable: true };
  return { schema, nullable: false };
}

/** A field's schema in words: what a reader of the JSON finds there. */
function valueOf(schema: JsonSchema): string {
  const { schema: inner, nullable } = unwrap(schema);
  let text: string;
  if (inner.const !== undefined) text = `\`${JSON.stringify(inner.const)}\``;
  else if (inner.enum) text = inner.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
  else if (inner.type === 'array') text = inner.items?.properties ? 'array of objects' : `array of ${valueOf(inner.items ?? {})}`;
  else if (inner.type === 'object') text = inner.properties ? 'object' : 'object (any keys)';
  else text = String(inner.type ?? 'any');
  return nullable ? `${text} or \`null\`` : text;
}

/** One row per field, nested objects and arrays of objects flattened as `a.b` and `a[].b`. */
function rows(schema: JsonSchema, prefix = ''): Row[] {
  const out: Row[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const { schema: inner } = unwrap(property);
    const optional = schema.required?.includes(name) ? '' : ' (optional)';
    out.push({ field: `${prefix}${name}`, value: valueOf(property) + optional, meaning: unwrap(property).schema.description ?? '' });
    if (inner.type === 'object' && inner.properties) out.push(...rows(inner, `${prefix}${name}.`));
    if (inner.type === 'array' && inner.items?.properties) out.push(...rows(inner.items, `${prefix}${name}[].`));
  }
  return out;
}

function table(schema: z.ZodType): string {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  return ['| field | value | meaning |', '|---|---|---|', ...rows(json).map((r) => `| \`${r.field}\` | ${cell(r.value)} | ${cell(r.meaning)} |`)].join('\n');
}

/** docs/reference/json-output.md: the JSON documents the CLI prints, from their zod schemas. */
export function jsonReference(): string {
  return [
    '---',
    'title: "JSON output"',
    'description: "The JSON that seekframe check --json prints and the render report (render --json, --report, the server stream), field by field."',
    '---',
    '',
    generatedNotice('CheckReportSchema and RenderReportSchema in core/producer/src (check/check-report.ts, report/render-report.ts)'),
    '',
    '# JSON output',
    '',
    'Both shapes are stable: within a `version`, fields are only ever added. The schemas themselves',
    'are exported (`CheckReportSchema`, `RenderReportSchema` from `seekframe` and `@seekframe/producer`),',
    'so a program can validate what it reads with zod.',
    '',
    '## `seekframe check --json` {#check}',
    '',
    'One JSON document on stdout. Exit codes:',
    `\`${CHECK_EXIT_CLEAN}\` no errors (warnings allowed unless \`--strict\`), \`${CHECK_EXIT_FINDINGS}\` findings that are errors,`,
    `\`${CHECK_EXIT_USAGE}\` a usage error, \`${CHECK_EXIT_NOT_RUN}\` the check could not run here (no browser, no ffmpeg; then stdout holds`,
    '`{"type":"error","error":{…}}` instead). How to act on each finding: [Checking a composition](../guide/checking.md).',
    '',
    table(CheckReportSchema),
    '',
    '## The render report {#render-report}',
    '',
    'The `report` of the final `complete` event of `seekframe render --json` (and of the server\'s',
    'stream and `POST /render`), `RenderResult.report` from `renderComposition`, and the file',
    '`render --report <file>` writes (also when the render fails or is cancelled). What to do with',
    'it: [Performance](../guide/performance.md#where-the-time-went).',
    '',
    table(RenderReportSchema),
    '',
  ].join('\n');
}
