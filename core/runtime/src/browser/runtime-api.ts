import type { SeekframeRuntime } from '../runtime-types.js';
import type { PageRuntime } from './page-runtime.js';

/**
 * `window.__seekframe` of one document: what the engine, the player and author scripts may call
 * on its runtime. Variables are handed out as a copy, so a script cannot change what the next
 * frame, or a sub-composition, reads.
 */
export function runtimeApi(runtime: PageRuntime): SeekframeRuntime {
  const { settings } = runtime;
  return {
    get duration() {
      return settings.duration();
    },
    fps: settings.fps,
    width: settings.width,
    height: settings.height,
    ready: runtime.ready,
    seek: (t) => runtime.seek(t),
    onSeek: (fn) => runtime.onSeek(fn),
    getVariables: () => structuredClone(settings.variables),
    mediaClips: () => runtime.mediaClips(),
    timeline: () => runtime.timeline(),
    useVideoFrames: (map) => runtime.useVideoFrames(map),
    inspectTimeline: () => runtime.inspectTimeline(),
    errors: () => runtime.errors(),
    pending: () => runtime.pendingList(),
    warnings: () => runtime.warnings(),
    setPlayback: (state) => runtime.setPlayback(state),
    probeFrame: (request) => runtime.probeFrame(request),
    hideText: (hidden) => runtime.hideText(hidden),
  };
}
