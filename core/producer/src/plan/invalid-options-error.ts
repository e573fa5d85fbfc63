import { SeekframeError } from '@seekframe/composition';
import type { z } from 'zod';

/**
 * zod issues as one `invalid-options` SeekframeError listing every problem. `fieldName` lets
 * each caller speak its own language (the CLI names flags, `--crf`; the HTTP server body fields,
 * `crf`); `source` names where the settings came from (a batch file, a request, a payload).
 */
export function invalidOptionsError(
  error: z.ZodError,
  fieldName: (field: string) => string = (field) => field,
  source?: string,
): SeekframeError {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? fieldName(issue.path.map(String).join('.')) : 'options';
    return { field, message: `${field} ${issue.message}` };
  });
  const list = problems.map((p) => p.message).join('; ');
  return new SeekframeError('invalid-options', source ? `${source}: ${list}` : list, {
    stage: 'config',
    // `field`: the first problem's, as the engine's own invalid-options errors carry it.
    details: { problems, field: problems[0]?.field ?? 'options', ...(source ? { source } : {}) },
  });
}
