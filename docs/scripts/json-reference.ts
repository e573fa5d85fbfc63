import { z } from 'zod';
import {
  CHECK_EXIT_CLEAN,
  CHECK_EXIT_FINDINGS,
  CHECK_EXIT_NOT_RUN,
  CHECK_EXIT_USAGE,
  CheckReportSchema,
  RenderReportSchema,
} from 'seekframe';
import { generatedNotice } from './generated-notice.js';
import { schemaTable, type JsonSchema } from './json-schema-table.js';

function table(schema: z.ZodType): string {
  return schemaTable(z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
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
    "The `report` of the final `complete` event of `seekframe render --json` (and of the server's",
    'stream and `POST /render`), `RenderResult.report` from `renderComposition`, and the file',
    '`render --report <file>` writes (also when the render fails or is cancelled). What to do with',
    'it: [Performance](../guide/performance.md#where-the-time-went).',
    '',
    table(RenderReportSchema),
    '',
  ].join('\n');
}
