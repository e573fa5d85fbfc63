import { guardBrowserMemory } from '@seekframe/engine';
import { jsHeapLimitMB, memoryBound, memoryLimitError, renderTimeoutError, type RenderLimits } from '../plan/render-limits.js';
import type { CleanupStack } from './cleanup-stack.js';
import type { RenderContext } from './render-context.js';

export interface RenderGuards {
  /** Aborted with the limit's own error (render-timeout, memory-limit-exceeded) when one stops the render. */
  signal: AbortSignal;
  /** The caller's context, its browsers now launched or leased through the memory guard. */
  context: RenderContext;
  /** Highest memory of the render's browsers together so far, in bytes (0 where it cannot be read). */
  peakBrowserBytes(): number;
}

/**
 * The limits that stop a render while it runs, both through one signal, so the render ends as a
 * cancel does (browsers and ffmpeg stopped, temp output removed) but with the limit's error:
 * the wall time (`maxRenderSeconds`, when set) and the memory of its browsers (`maxMemoryMB`,
 * always on: DEFAULT_MEMORY_PER_BROWSER_MB per browser when unset). Undone by `cleanup`, after the browsers it guards.
 */
export function startRenderGuards(limits: RenderLimits | undefined, context: RenderContext, cleanup: CleanupStack): RenderGuards {
  const stop = new AbortController();
  const bound = memoryBound(limits);
  const guard = guardBrowserMemory({
    maxBytes: 'totalMB' in bound ? bound.totalMB * 2 ** 20 : { perBrowser: bound.perBrowserMB * 2 ** 20 },
    jsHeapLimitMB: jsHeapLimitMB(bound),
    onExceeded: (usage) => stop.abort(memoryLimitError({ ...usage, perBrowser: !('totalMB' in bound) })),
  });
  cleanup.add(() => guard.stop());
  const maxSeconds = limits?.maxRenderSeconds;
  if (maxSeconds !== undefined) {
    const timer = setTimeout(() => stop.abort(renderTimeoutError(maxSeconds)), maxSeconds * 1000);
    cleanup.add(() => clearTimeout(timer));
  }
  return {
    signal: stop.signal,
    context: { ...context, browsers: guard.source(context.browsers) },
    peakBrowserBytes: () => guard.peakBytes(),
  };
}
