import type { PlaybackState } from '../runtime-types.js';
import type { Clip } from './clip-timeline.js';

/** How far (s) a playing element may drift from the composition time before it is re-seeked. */
export const DRIFT_TOLERANCE = 0.15;

/** `<audio>` always; `<video>` only with `data-has-audio` (the clips the renderer mixes). */
export function isAudible(clip: Clip): boolean {
  if (clip.kind === 'audio') return true;
  if (clip.kind !== 'video') return false;
  const attr = clip.el.getAttribute('data-has-audio');
  return attr !== null && attr !== 'false';
}

export function clipVolume(el: Element): number {
  // The preview studio's mute and solo per track (never set in a render, whose audio ffmpeg mixes).
  if (el.hasAttribute('data-seekframe-studio-muted')) return 0;
  const volume = Number(el.getAttribute('data-volume') ?? 1);
  return Number.isFinite(volume) ? Math.min(1, Math.max(0, volume)) : 1;
}

/**
 * Preview-mode audio: while the player says "playing", audible clips whose window contains the
 * current time play for real (so they are heard), re-seeked only when they drift; everything else
 * stays paused and is seeked frame by frame. Render mode never creates one of these.
 */
export class MediaPlayback {
  state: PlaybackState = { playing: false, muted: false };
  /** Elements whose play() was refused in this play session: not retried (and reported) every frame. */
  private refused = new WeakSet<HTMLMediaElement>();

  /** Applies a new state to this document's media elements (all of them get `muted`). */
  set(state: PlaybackState, media: Iterable<HTMLMediaElement>): void {
    if (state.playing && !this.state.playing) this.refused = new WeakSet();
    this.state = { ...state };
    for (const el of media) {
      el.muted = state.muted;
      if (!state.playing && !el.paused) el.pause();
    }
  }

  /** True when this clip is handled here (played) rather than by a frame seek. */
  handles(clip: Clip): boolean {
    return this.state.playing && isAudible(clip);
  }

  /** Called on each seek while playing, for an audible clip: start, resync or stop it. */
  sync(clip: Clip, local: number, active: boolean): void {
    const el = clip.el as HTMLMediaElement;
    const end = Number.isFinite(el.duration) ? el.duration : Infinity;
    if (!active || local >= end - 0.05 || el.readyState < HTMLMediaElement.HAVE_METADATA) {
      if (!el.paused) el.pause();
      return;
    }
    el.muted = this.state.muted;
    el.volume = clipVolume(el);
    const target = Math.max(0, local);
    if (!el.seeking && Math.abs(el.currentTime - target) > DRIFT_TOLERANCE) el.currentTime = target;
    if (el.paused && !this.refused.has(el)) this.start(el);
  }

  private start(el: HTMLMediaElement): void {
    let played: Promise<void> | undefined;
    try {
      played = el.play();
    } catch (error) {
      this.rejected(el, error);
      return;
    }
    // Never an unhandled rejection: a refused play() leaves the clip silent, the picture goes on.
    played?.catch((error: unknown) => this.rejected(el, error));
  }

  private rejected(el: HTMLMediaElement, error: unknown): void {
    const name = error instanceof DOMException ? error.name : '';
    // AbortError: a pause() (the player paused, the clip left its window) interrupted play().
    if (name === 'AbortError') return;
    this.refused.add(el);
    if (name === 'NotAllowedError') this.state.onBlocked?.(el.currentSrc || el.src);
  }
}
