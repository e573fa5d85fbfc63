import { SeekframeError, type CompositionMetadata } from '@seekframe/composition';
import type { CapturePage } from '@seekframe/engine';

/**
 * The composition's length as the page's runtime has it once ready: for an entry without
 * `data-duration`, the length of the timeline it registered (`window.__timelines[id]`), else where
 * its last finite animation ends.
 */
export async function pageDuration(page: Pick<CapturePage, 'evaluate'>): Promise<number> {
  return page.evaluate(() => (window as unknown as { __seekframe: { duration: number } }).__seekframe.duration);
}

/** `empty-composition`, saying which length was 0: the attribute's, the registered timeline's or the animations'. */
export function emptyComposition(file: string, metadata: CompositionMetadata, seconds: number): SeekframeError {
  const message =
    metadata.durationSource === 'timeline'
      ? `${file} has no data-duration, so it lasts as long as the timeline it registers in window.__timelines["${metadata.id}"], which lasts ${seconds} s once the page loaded ` +
        `(nothing is registered under "${metadata.id}", or the timeline is empty); register the composition's timeline under its data-composition-id, or give the root data-duration="5" (seconds).`
      : metadata.durationSource === 'animations'
        ? `${file} has no data-duration and registers no timeline, so it lasts until its last CSS animation or Web Animation ends, and none had a finite end once the page loaded; give the root data-duration="5" (seconds).`
        : `${file} has data-duration="${metadata.duration}"; give the root a positive duration in seconds.`;
  return new SeekframeError('empty-composition', message, { stage: 'load', details: { file } });
}

/** How long a composition is and where that came from: the render report's and the check report's `length`. */
export interface CompositionLength {
  seconds: number;
  source: 'data-duration' | 'timeline' | 'animations';
  note: string;
}

export function describeLength(metadata: CompositionMetadata, seconds: number): CompositionLength {
  const rounded = Math.round(seconds * 1000) / 1000;
  if (metadata.durationSource === 'timeline')
    return {
      seconds: rounded,
      source: 'timeline',
      note: `the root has no data-duration: ${rounded} s is the length of the timeline registered in window.__timelines["${metadata.id}"], read in the page`,
    };
  if (metadata.durationSource === 'animations')
    return {
      seconds: rounded,
      source: 'animations',
      note: `the root has no data-duration and registers no timeline: ${rounded} s is where its last CSS animation or Web Animation ends, read in the page`,
    };
  return { seconds: rounded, source: 'data-duration', note: `data-duration="${metadata.duration}" on the root` };
}
