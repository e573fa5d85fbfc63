import type { SeekframeRuntime } from '../runtime-types.js';
import type { EmbeddedFrame } from './embedded-frame.js';
import type { SubComposition } from './sub-composition.js';

/**
 * A document's own list (errors, pending work) followed by its sub-compositions' and iframes',
 * each line prefixed with where it came from, so a report names the nested document at fault.
 */
export function withNested(
  own: string[],
  subs: readonly SubComposition[],
  frames: readonly EmbeddedFrame[],
  read: (runtime: Pick<SeekframeRuntime, 'errors' | 'pending'>) => string[],
): string[] {
  for (const sub of subs) {
    if (sub.runtime) for (const line of read(sub.runtime)) own.push(`[${sub.id}] ${line}`);
  }
  for (const frame of frames) {
    for (const line of read(frame.runtime)) own.push(`[iframe ${frame.src}] ${line}`);
  }
  return own;
}
