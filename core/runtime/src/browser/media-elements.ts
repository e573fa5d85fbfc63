import { realSetTimeout } from './real-timers.js';

/** The absolute URL the element plays (or will play). */
export function mediaSrc(el: HTMLMediaElement): string {
  if (el.currentSrc) return el.currentSrc;
  if (el.src) return el.src;
  const source = el.querySelector('source');
  return source ? source.src : '';
}

export interface MetadataResult {
  ok: boolean;
  reason?: string;
}

/** Waits until the element knows its duration, or failed to load. Never rejects. */
export function waitForMetadata(el: HTMLMediaElement): Promise<MetadataResult> {
  if (el.readyState >= HTMLMediaElement.HAVE_METADATA) return Promise.resolve({ ok: true });
  if (el.preload === 'none') el.preload = 'metadata';
  if (el.networkState === HTMLMediaElement.NETWORK_EMPTY) el.load();
  return new Promise((resolve) => {
    const done = (result: MetadataResult): void => {
      el.removeEventListener('loadedmetadata', onMeta);
      el.removeEventListener('error', onError, true);
      resolve(result);
    };
    const onMeta = (): void => done({ ok: true });
    const onError = (): void => done({ ok: false, reason: el.error?.message || `media error ${el.error?.code ?? ''}`.trim() });
    el.addEventListener('loadedmetadata', onMeta);
    // <source> children report errors on themselves; capture catches them on the media element.
    el.addEventListener('error', onError, true);
    if (el.error) onError();
  });
}

export function naturalDuration(el: HTMLMediaElement): number | undefined {
  return Number.isFinite(el.duration) && el.duration > 0 ? el.duration : undefined;
}

/**
 * Preview path (and render without extracted frames): seek the element itself and wait until the
 * new frame is decoded. `seeked` is an event from the media pipeline, not from rendering, so this
 * is safe under beginframe capture.
 */
export async function seekMediaElement(el: HTMLMediaElement, time: number): Promise<void> {
  if (!el.paused) el.pause();
  if (el.readyState < HTMLMediaElement.HAVE_METADATA) return;
  const target = Math.min(Math.max(0, time), Number.isFinite(el.duration) ? el.duration : time);
  if (Math.abs(el.currentTime - target) > 0.0005) {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        el.removeEventListener('seeked', done);
        el.removeEventListener('error', done);
        resolve();
      };
      el.addEventListener('seeked', done);
      el.addEventListener('error', done);
      el.currentTime = target;
    });
  }
  if (el instanceof HTMLVideoElement && el.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        el.removeEventListener('loadeddata', done);
        el.removeEventListener('canplay', done);
        resolve();
      };
      el.addEventListener('loadeddata', done);
      el.addEventListener('canplay', done);
      // Some streams never report more data after a seek at the very end; do not hang on them.
      realSetTimeout(done, 2000);
    });
  }
}
