import path from 'node:path';
import { z } from 'zod';
import { invalidOptionsError } from '../plan/parse-render-options.js';
import { defaultOutputPath, FORMAT_EXTENSIONS, type OutputFormat } from '../plan/render-options.js';

/** What `renderBatch` takes: the shared render options, the decoded batch file and batch knobs. */
export const BatchOptionsSchema = z.object({
  /** The render spec shared by every row (RenderSpecSchema input, parsed by renderBatch); `variables` must be absent. */
  render: z.record(z.string(), z.unknown()),
  /**
   * The batch: a JSON-decoded file (an array of rows, or `{ rows: [...] }`), or with `batchFormat:
   * 'csv'` the records of a CSV file (every cell text), which take their declared types.
   */
  batch: z.unknown(),
  /** `csv`: `batch` holds CSV records whose cells are text; each becomes the type its variable declares. */
  batchFormat: z.enum(['json', 'csv']).default('json'),
  /** Where the rows came from; named in messages and recorded in the manifest. */
  batchFile: z.string().min(1).optional(),
  /** Output template with `{key}` and `{index}`; default `renders/<name>-{index}.<ext>`. Relative to `cwd`. */
  output: z.string().min(1, 'must be a path template like renders/{title}-{index}.mp4').optional(),
  concurrency: z.number().int('must be a whole number').min(1, 'must be 1-16').max(16, 'must be 1-16').default(1),
  failFast: z.boolean().default(false),
  resume: z.boolean().default(false),
  cwd: z.string().min(1).optional(),
  signal: z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'must be an AbortSignal').optional(),
});

export type BatchOptionsInput = z.input<typeof BatchOptionsSchema>;
export type BatchOptions = z.output<typeof BatchOptionsSchema>;

/** Validates batch options into one `invalid-options` error; `fieldName` maps fields to flags or body keys. */
export function parseBatchOptions(input: BatchOptionsInput, fieldName: (field: string) => string = (field) => field): BatchOptions {
  const result = BatchOptionsSchema.safeParse(input);
  if (result.success) return result.data;
  throw invalidOptionsError(result.error, fieldName);
}

/** `renders/<name>-{index}.<ext>` (relative), beside where a single render of the project would go. */
export function defaultBatchOutputTemplate(projectDir: string, format: OutputFormat, cwd: string): string {
  const single = defaultOutputPath(projectDir, format, cwd);
  const ext = FORMAT_EXTENSIONS[format];
  // The project name is literal text: braces in it must not read as placeholders.
  const name = path.basename(single, ext).replace(/[{}]/g, '_');
  return path.join('renders', `${name}-{index}${ext}`);
}
