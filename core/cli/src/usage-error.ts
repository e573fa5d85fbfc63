import { SeekframeError } from '@seekframe/composition';

/**
 * Error codes that mean "the command line was wrong" and exit with 2 instead of 1. The engine's
 * `parseWorkers` throws `invalid-options` too; commands use `invalidArgument` below.
 */
const USAGE_CODES = new Set(['invalid-options', 'invalid-argument']);

export function isUsageError(error: unknown): boolean {
  return error instanceof SeekframeError && USAGE_CODES.has(error.code);
}

/** A bad positional argument or flag value: `field` names it, `message` says the rule and the fix. */
export function invalidArgument(field: string, message: string, details: Record<string, unknown> = {}): SeekframeError {
  return new SeekframeError('invalid-argument', message, { stage: 'config', details: { field, ...details } });
}
