/**
 * Which attribute values a studio edit may write: timing attributes only, each with a value its
 * parser accepts. The server checks every change against this before it touches a file.
 */
import { parseStartExpression, SeekframeError } from '@seekframe/composition';

export const TIMING_ATTRIBUTES = ['data-start', 'data-duration', 'data-media-start', 'data-track-index'] as const;
export type TimingAttribute = (typeof TIMING_ATTRIBUTES)[number];

const SECONDS = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

/** Why `value` is not a value `attribute` can take, or null when it is one. */
export function timingValueProblem(attribute: string, value: string): string | null {
  if (!(TIMING_ATTRIBUTES as readonly string[]).includes(attribute))
    return `${attribute} is not a timing attribute; the studio writes only ${TIMING_ATTRIBUTES.join(', ')}`;
  if (value.length > 200) return `the ${attribute} value is longer than 200 characters`;
  if (attribute === 'data-start') {
    const parsed = parseStartExpression(value);
    return parsed.kind === 'invalid' ? `data-start ${parsed.reason}` : null;
  }
  if (attribute === 'data-track-index')
    return /^\d{1,6}$/.test(value.trim()) ? null : `data-track-index "${value}" is not a whole number 0 or more`;
  return SECONDS.test(value.trim()) ? null : `${attribute} "${value}" is not a number of seconds (0 or more, e.g. 1.5)`;
}

/** Throws `invalid-edit` naming the file and the attribute when the value cannot be written. */
export function checkTimingChange(file: string, attribute: string, value: string): void {
  const problem = timingValueProblem(attribute, value);
  if (problem) throw new SeekframeError('invalid-edit', `${file}: ${problem}.`, { stage: 'serve', details: { file, attribute } });
}
