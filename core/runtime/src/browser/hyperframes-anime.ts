/** The part of an anime.js (v3/v4) timeline the adapter uses; duck-typed, the runtime never bundles anime.js. */
interface AnimeTimelineLike {
  seek?: (ms: number) => unknown;
  pause?: () => unknown;
  duration?: number;
}

/**
 * HyperFrames' anime.js adapter: `hyperframesAnime.register(compositionId, timeline, options)`
 * (a timeline created with `autoplay: false`). Registered into `window.__timelines` as a
 * timeline-like object, so it is seeked with the GSAP ones, at its composition's local time, and
 * its length counts as the composition's own when nothing else gives one. `options` (labels) is
 * accepted and ignored.
 */
export function installHyperframesAnime(win: Window): void {
  const target = win as unknown as { hyperframesAnime?: unknown; __timelines?: Record<string, unknown> };
  if (target.hyperframesAnime !== undefined) return;
  target.hyperframesAnime = {
    register(id: string, timeline: AnimeTimelineLike, _options?: unknown): void {
      if (typeof id !== 'string' || !timeline || typeof timeline.seek !== 'function') {
        throw new TypeError(
          'hyperframesAnime.register(compositionId, timeline) needs a composition id and an anime.js timeline (anime.createTimeline({ autoplay: false }))',
        );
      }
      timeline.pause?.();
      const seconds = (): number => Number(timeline.duration) / 1000;
      target.__timelines = target.__timelines ?? {};
      target.__timelines[id] = {
        paused: () => true,
        totalTime: (t: number) => timeline.seek?.(t * 1000),
        duration: seconds,
        totalDuration: seconds,
      };
    },
  };
}
