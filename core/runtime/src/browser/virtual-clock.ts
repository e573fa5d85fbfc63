import { RealDate } from './real-timers.js';

/**
 * Automation code evaluated over CDP (puppeteer's waitForFunction/waitForSelector pollers, whose
 * scripts carry a `pptr:` source URL) keeps real timers: it is not part of the composition, and
 * with a virtual clock its polling would never run.
 */
function isToolingCaller(): boolean {
  const stack = new Error().stack;
  return stack !== undefined && stack.includes('pptr:');
}

interface Timer {
  id: number;
  due: number;
  interval: number | undefined;
  fn: () => void;
  order: number;
}

/**
 * Replaces `Date`, `performance.now`, `requestAnimationFrame` and timers with ones that follow the
 * seek time. Nothing runs by itself: `advanceTo(t)` runs the timers that came due, each with the
 * clock set to its own due time, so a page reaches the same state whether it was seeked frame by
 * frame or jumped straight to `t` (render workers start mid-way). rAF callbacks run once per seek.
 */
export class VirtualClock {
  private nowMs = 0;
  // Far above the browser's own ids, so clearTimeout can tell a virtual timer from a real one.
  private nextId = 1_000_000_000;
  private order = 0;
  private readonly timers = new Map<number, Timer>();
  private frameCallbacks = new Map<number, FrameRequestCallback>();
  private readonly onError: (error: unknown) => void;
  private readonly epochMs: number;

  constructor(options: { epochMs: number; onError: (error: unknown) => void }) {
    this.epochMs = options.epochMs;
    this.onError = options.onError;
  }

  /** Current virtual time in ms since the composition's 0. */
  now(): number {
    return this.nowMs;
  }

  install(win: Window & typeof globalThis): void {
    const clock = this;
    const real = {
      setTimeout: win.setTimeout.bind(win),
      setInterval: win.setInterval.bind(win),
      clearTimeout: win.clearTimeout.bind(win),
      clearInterval: win.clearInterval.bind(win),
      requestAnimationFrame: win.requestAnimationFrame.bind(win),
      cancelAnimationFrame: win.cancelAnimationFrame.bind(win),
    };
    const VirtualDate = new Proxy(RealDate, {
      construct(target, args, newTarget) {
        return Reflect.construct(target, args.length === 0 ? [clock.epochMs + clock.nowMs] : args, newTarget);
      },
      apply() {
        return new RealDate(clock.epochMs + clock.nowMs).toString();
      },
      get(target, key, receiver) {
        if (key === 'now') return () => clock.epochMs + clock.nowMs;
        return Reflect.get(target, key, receiver);
      },
    });
    win.Date = VirtualDate;
    Object.defineProperty(win.performance, 'now', { value: () => clock.nowMs, configurable: true, writable: true });
    win.setTimeout = ((fn: TimerHandler, delay?: number, ...args: unknown[]) =>
      isToolingCaller() ? real.setTimeout(fn, delay, ...args) : clock.addTimer(fn, delay, args, false)) as typeof setTimeout;
    win.setInterval = ((fn: TimerHandler, delay?: number, ...args: unknown[]) =>
      isToolingCaller() ? real.setInterval(fn, delay, ...args) : clock.addTimer(fn, delay, args, true)) as typeof setInterval;
    win.clearTimeout = ((id?: number) => {
      if (id === undefined) return;
      if (!clock.timers.delete(id)) real.clearTimeout(id);
    }) as typeof clearTimeout;
    win.clearInterval = ((id?: number) => {
      if (id === undefined) return;
      if (!clock.timers.delete(id)) real.clearInterval(id);
    }) as typeof clearInterval;
    win.requestAnimationFrame = (fn: FrameRequestCallback) => {
      if (isToolingCaller()) return real.requestAnimationFrame(fn);
      const id = clock.nextId++;
      clock.frameCallbacks.set(id, fn);
      return id;
    };
    win.cancelAnimationFrame = (id: number) => {
      if (!clock.frameCallbacks.delete(id)) real.cancelAnimationFrame(id);
    };
  }

  private addTimer(fn: TimerHandler, delay: number | undefined, args: unknown[], repeat: boolean): number {
    const id = this.nextId++;
    const ms = Math.max(0, Number(delay) || 0);
    const call =
      typeof fn === 'function'
        ? () => (fn as (...a: unknown[]) => void)(...args)
        : // String handlers are rare and eval-like; run them as the browser would.
          () => void new Function(String(fn))();
    // Browsers clamp intervals to >= 1ms in effect; we do too so `setInterval(f, 0)` cannot spin.
    const interval = repeat ? Math.max(1, ms) : undefined;
    this.timers.set(id, { id, due: this.nowMs + ms, interval, fn: call, order: this.order++ });
    return id;
  }

  /** Number of timers still waiting (for `pending()` diagnostics only). */
  timerCount(): number {
    return this.timers.size;
  }

  /**
   * Runs every timer due at or before `targetMs` in due-time order, each seeing its own due time
   * on the clock; `afterEach` lets the runtime notice work a callback started (new animations).
   * Ends with the clock at `targetMs`. A runaway interval is cut off rather than hanging the page.
   */
  runTimersUntil(targetMs: number, afterEach?: (atMs: number) => void): void {
    for (let guard = 0; guard < 100_000; guard++) {
      let next: Timer | undefined;
      for (const timer of this.timers.values()) {
        if (timer.due > targetMs) continue;
        if (!next || timer.due < next.due || (timer.due === next.due && timer.order < next.order)) next = timer;
      }
      if (!next) break;
      this.nowMs = Math.max(this.nowMs, next.due);
      if (next.interval === undefined) this.timers.delete(next.id);
      else {
        next.due += next.interval;
        next.order = this.order++;
      }
      try {
        next.fn();
      } catch (error) {
        this.onError(error);
      }
      afterEach?.(this.nowMs);
    }
    this.nowMs = targetMs;
  }

  /** Sets the clock without running anything (seeking backwards keeps pending timers pending). */
  setNow(ms: number): void {
    this.nowMs = ms;
  }

  /** Runs the animation-frame callbacks requested so far, with the current virtual timestamp. */
  runFrameCallbacks(): void {
    const callbacks = this.frameCallbacks;
    this.frameCallbacks = new Map();
    for (const fn of callbacks.values()) {
      try {
        fn(this.nowMs);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
