import { SeekframeError } from '@seekframe/composition';
import type { PendingSet } from './pending-set.js';

export function waitForDomContentLoaded(doc: Document): Promise<void> {
  if (doc.readyState !== 'loading') return Promise.resolve();
  return new Promise((resolve) => doc.addEventListener('DOMContentLoaded', () => resolve(), { once: true }));
}

export function waitForWindowLoad(win: Window): Promise<void> {
  if (win.document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => win.addEventListener('load', () => resolve(), { once: true }));
}

/** Forces layout so newly used fonts start loading, then waits for every pending font. */
export async function waitForFonts(doc: Document): Promise<void> {
  void doc.documentElement.offsetHeight;
  if (doc.fonts.status === 'loading') await doc.fonts.ready;
}

const decoded = new WeakMap<HTMLImageElement, string>();

/**
 * Waits until every `<img>` in the document has its current source decoded. Images already
 * decoded for their current URL are skipped, so a seek only pays for what changed.
 */
export async function decodeImages(doc: Document, pending: PendingSet): Promise<void> {
  const work: Promise<void>[] = [];
  for (const img of doc.images) {
    const src = img.currentSrc || img.src;
    if (!src || decoded.get(img) === src) continue;
    work.push(
      pending.track(
        `image ${src}`,
        img.decode().then(
          () => void decoded.set(img, src),
          () => {
            throw new SeekframeError(
              'asset-not-found',
              `Image ${src} in ${doc.location.href} could not be loaded or decoded; check that the file exists and is a valid image`,
              {
                stage: 'load',
                details: { url: src },
              },
            );
          },
        ),
      ),
    );
  }
  await Promise.all(work);
}
