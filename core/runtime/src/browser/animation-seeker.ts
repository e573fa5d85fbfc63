import { RUNTIME_ANIMATION_ID } from './text-hiding.js';

/** The part of a GSAP timeline we use; duck-typed so the runtime never bundles GSAP. */
interface TimelineLike {
  duration?: () => unknown;
  totalDuration?: () => unknown;
  totalTime?: (time: number, suppressEvents?: boolean) => unknown;
  seek?: (time: number, suppressEvents?: boolean) => unknown;
  pause?: () => unknown;
  paused?: (value?: boolean) => unknown;
}

interface GsapLike {
  ticker?: { lagSmoothing?: (threshold: number) => unknown };
}

/**
 * Seeks GSAP timelines from `window.__timelines` and every CSS animation, CSS transition and Web
 * Animation in the document. Each animation is seeked relative to its birth: animations present
 * at load are born at 0; ones a timer or callback starts later are born at the virtual time they
 * were first seen, so a class toggled at 1.5 s animates from 1.5 s whichever way the page got there.
 */
export class AnimationSeeker {
  private readonly births = new Map<Animation, number>();
  private smoothedGsap: unknown;

  constructor(
    private readonly win: Window,
    private readonly timelineOffset: (key: string) => number,
    private readonly onError: (error: unknown, where: string) => void,
  ) {}

  /** Adopts animations not seen before, born at `atSeconds`. */
  scan(atSeconds: number): void {
    const doc = this.win.document;
    if (typeof doc.getAnimations !== 'function') return;
    for (const animation of doc.getAnimations()) {
      // The runtime's own (the contrast audit's hidden text) are no part of the composition.
      if (this.births.has(animation) || animation.id === RUNTIME_ANIMATION_ID) continue;
      this.births.set(animation, atSeconds);
      animation.pause();
      animation.currentTime = 0;
    }
  }

  /** Every adopted animation with the composition second it was born at (see `scan`). */
  adopted(): Array<[Animation, number]> {
    return [...this.births];
  }

  seekAnimations(t: number): void {
    for (const [animation, birth] of this.births) {
      // A cancelled animation (class removed, cancel()) must not be brought back by seeking it;
      // one whose element left the document can never show again.
      const target = animation.effect instanceof KeyframeEffect ? animation.effect.target : null;
      if (animation.playState === 'idle' || (target !== null && !target.isConnected)) {
        this.births.delete(animation);
        continue;
      }
      animation.pause();
      animation.currentTime = Math.max(0, t - birth) * 1000;
    }
  }

  seekTimelines(t: number): void {
    this.disableLagSmoothing();
    const registry = (this.win as unknown as { __timelines?: Record<string, TimelineLike | undefined> }).__timelines;
    if (!registry || typeof registry !== 'object') return;
    for (const [key, timeline] of Object.entries(registry)) {
      if (!timeline || typeof timeline !== 'object') continue;
      const local = Math.max(0, t - this.timelineOffset(key));
      try {
        // Timelines must be paused; one left running would be moved by GSAP's own ticker too.
        if (typeof timeline.paused === 'function' && timeline.paused() !== true) timeline.paused(true);
        if (typeof timeline.totalTime === 'function') timeline.totalTime(local, false);
        else if (typeof timeline.seek === 'function') timeline.seek(local, false);
      } catch (error) {
        // A throwing onUpdate/call() is the author's bug: report it, keep the frame going.
        this.onError(error, `window.__timelines["${key}"] at ${local}s`);
      }
    }
  }

  /**
   * Length in seconds of the timeline registered for composition `key` (else the longest one
   * registered): GSAP's totalDuration() (repeats included; an endless repeat counts once).
   */
  timelineLength(key: string | undefined): number | undefined {
    const registry = (this.win as unknown as { __timelines?: Record<string, TimelineLike | undefined> }).__timelines;
    if (!registry || typeof registry !== 'object') return undefined;
    const lengthOf = (timeline: TimelineLike | undefined): number | undefined => {
      try {
        const total = typeof timeline?.totalDuration === 'function' ? Number(timeline.totalDuration()) : NaN;
        if (Number.isFinite(total) && total > 0 && total < 1e6) return total;
        const once = typeof timeline?.duration === 'function' ? Number(timeline.duration()) : NaN;
        return Number.isFinite(once) && once > 0 ? once : undefined;
      } catch {
        return undefined;
      }
    };
    if (key !== undefined && key in registry) return lengthOf(registry[key]);
    let longest: number | undefined;
    for (const timeline of Object.values(registry)) {
      const length = lengthOf(timeline);
      if (length !== undefined && (longest === undefined || length > longest)) longest = length;
    }
    return longest;
  }

  /**
   * Where the document's last finite CSS animation or Web Animation ends, in seconds (from its
   * birth): the length of a composition that has neither data-duration nor a registered timeline,
   * as HyperFrames infers it. Infinite ones give no end; undefined when none is finite.
   */
  animationsLength(): number | undefined {
    const doc = this.win.document;
    if (typeof doc.getAnimations !== 'function') return undefined;
    let end: number | undefined;
    for (const animation of doc.getAnimations()) {
      const ms = Number(animation.effect?.getComputedTiming().endTime);
      if (!Number.isFinite(ms) || ms <= 0) continue;
      const seconds = (this.births.get(animation) ?? 0) + ms / 1000;
      if (end === undefined || seconds > end) end = seconds;
    }
    return end;
  }

  /**
   * GSAP's ticker (driven by the virtual rAF) treats any jump over 500 ms as 33 ms ("lag
   * smoothing"). Seeks jump, so tweens that are not on a registered timeline would lag behind the
   * clock; turning smoothing off makes them follow it exactly (forwards).
   */
  private disableLagSmoothing(): void {
    const gsap = (this.win as unknown as { gsap?: GsapLike }).gsap;
    if (!gsap || gsap === this.smoothedGsap || typeof gsap.ticker?.lagSmoothing !== 'function') return;
    gsap.ticker.lagSmoothing(0);
    this.smoothedGsap = gsap;
  }
}
