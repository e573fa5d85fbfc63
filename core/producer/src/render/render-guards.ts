import { toSeekframeError } from '@seekframe/composition';
import { guardBrowserMemory } from '@seekframe/engine';
import { jsHeapLimitMB, memoryBound, memoryLimitError, renderTimeoutError, type RenderLimits } from '../plan/render-limits.js';
import type { ProblemLog } from '../serve/problem-log.js';
import { CleanupStack } from './cleanup-stack.js';
import type { RenderContext } from './render-context.js';
import { abortError, rootCause } from './render-errors.js';
import type { RenderEvent } from './render-events.js';

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

/** What a guarded render's work gets once it has its limits: the guards, the one signal that stops it, its clean-up. */
export interface GuardedRun {
  guards: RenderGuards;
  /** The caller's cancel (context, else the options' signal) or a limit, whichever comes first. */
  signal: AbortSignal;
  cleanup: CleanupStack;
}

/**
 * The life cycle of a render entry point (renderComposition, renderStills): `work` parses its
 * options and calls `start(limits, optionSignal)` for the guards and the signal; whatever it
 * throws becomes exactly one `error` event and the thrown SeekframeError (a cancel or a limit as
 * itself, a consequence of a missing file as that file's problem), and `cleanup` runs either way.
 */
export async function guardedRender<T>(
  context: RenderContext,
  emit: (event: RenderEvent) => void,
  problems: ProblemLog,
  work: (start: (limits: RenderLimits | undefined, optionSignal: AbortSignal | undefined) => GuardedRun) => Promise<T>,
): Promise<T> {
  const cleanup = new CleanupStack();
  let cancel: AbortSignal | undefined;
  // The limits (wall time, memory) stop the render through their own signal, so their error is not mistaken for a user's cancel.
  let limited: AbortSignal | undefined;
  try {
    return await work((limits, optionSignal) => {
      cancel = context.signal ?? optionSignal;
      const guards = startRenderGuards(limits, context, cleanup);
      limited = guards.signal;
      return { guards, signal: cancel ? AbortSignal.any([cancel, limited]) : limited, cleanup };
    });
  } catch (caught) {
    const error = abortError(cancel, limited) ?? rootCause(toSeekframeError(caught, { code: 'render-failed' }), problems);
    emit({ type: 'error', error: error.toJSON() });
    throw error;
  } finally {
    await cleanup.run();
  }
}
