import { launchBrowser, type BrowserSession, type LaunchOptions } from '../browser/launch-browser.js';
import { createTreeMemory } from '../system/tree-memory.js';
import type { BrowserSource } from './browser-pool.js';

/**
 * One render's memory bound. Every browser the render uses comes through `source()`, which
 * launches it (or leases it from a warm pool) with V8's heap limit for its pages and then watches
 * it until the render lets it go:
 * - the RSS of every process of every one of these browsers, added up, read every `intervalMs`
 *   (Linux; see tree-memory.ts): over `maxBytes`, the render is stopped (`onExceeded`) and its
 *   browsers are killed at once, so the memory is back within a reading or two. A page filling
 *   ArrayBuffers (outside V8's heap) grows by ~0.4 GB/s, so the bound is overshot by ~0.1 GB.
 * - the browsers' stderr, where a renderer that hit the heap limit writes "V8 javascript OOM"
 *   just before it dies: the same stop, at once, instead of the frame pool restarting the page
 *   (it would only grow again) and the render ending as a mere crash.
 * Killed, never released: a pooled browser whose page did this is retired, not handed to the
 * next render. Other renders, with their own guards and browsers, are untouched.
 */
export interface MemoryGuardOptions {
  /**
   * Most bytes the render's browsers may hold together (resident memory of all their processes,
   * without mapped files: tree-memory.ts); `{ perBrowser }`: that much for each browser it holds now.
   */
  maxBytes: number | { perBrowser: number };
  /** V8's heap limit for each page, in MB (`--js-flags=--max-old-space-size`); none when unset. */
  jsHeapLimitMB?: number;
  /** How often the browsers' memory is read (default 250 ms). */
  intervalMs?: number;
  /** Called once, when the bound is crossed, once the browsers' kill has begun. */
  onExceeded(usage: MemoryExceeded): void;
  /** How a browser starts when no pool is given (default launchBrowser); tests pass a wrapper. */
  launch?: (opts: LaunchOptions) => Promise<BrowserSession>;
}

export interface MemoryExceeded {
  /** `rss`: the browsers' memory passed maxBytes; `js-heap`: a page's JavaScript heap reached jsHeapLimitMB. */
  kind: 'rss' | 'js-heap';
  /** What the browsers held at the last reading, in bytes. */
  usedBytes: number;
  /** The bound then (it grows with the browsers when given per browser). */
  maxBytes: number;
  jsHeapLimitMB: number | undefined;
  /** Browsers the render held. */
  browsers: number;
}

export interface MemoryGuard {
  /** Browsers for this render: from `inner` (a warm pool) or launched, each watched until closed or killed. */
  source(inner?: BrowserSource): BrowserSource;
  /** Highest RSS of the render's browsers together seen at one reading, in bytes (0 where it cannot be read). */
  peakBytes(): number;
  /** Stops watching; resolves once every browser it killed is gone. */
  stop(): Promise<void>;
}

/** What renderers write to stderr when V8 gives up on the heap limit (Blink's v8_oom.cc, V8's heap.cc). */
const OUT_OF_MEMORY = /V8 javascript OOM|Fatal JavaScript out of memory/;

interface Watched {
  session: BrowserSession;
  pid: number | undefined;
  stopReading(): void;
}

export function guardBrowserMemory(options: MemoryGuardOptions): MemoryGuard {
  const tree = createTreeMemory();
  const watched = new Set<Watched>();
  const kills: Array<Promise<void>> = [];
  let peak = 0;
  let last = 0;
  let exceeded = false;
  let stopped = false;

  const limit = (): number =>
    typeof options.maxBytes === 'number' ? options.maxBytes : options.maxBytes.perBrowser * Math.max(1, watched.size);
  const trip = (kind: MemoryExceeded['kind']): void => {
    if (exceeded || stopped) return;
    exceeded = true;
    clearInterval(timer);
    const usage: MemoryExceeded = {
      kind,
      usedBytes: last,
      maxBytes: limit(),
      jsHeapLimitMB: options.jsHeapLimitMB,
      browsers: watched.size,
    };
    // Killed before the render hears of it: stopping the render closes its browsers politely
    // (a pooled one would go back to the pool as healthy), and a polite close waits on the page.
    for (const entry of [...watched]) release(entry, 'kill');
    options.onExceeded(usage);
  };

  const read = (): void => {
    const pids = [...watched].map((entry) => entry.pid).filter((pid): pid is number => pid !== undefined);
    if (pids.length === 0) return;
    let total = 0;
    for (const bytes of tree.read(pids).values()) total += bytes;
    last = total;
    peak = Math.max(peak, total);
    if (total > limit()) trip('rss');
  };
  const timer = setInterval(read, options.intervalMs ?? 250);
  timer.unref();

  const release = (entry: Watched, how: 'close' | 'kill'): Promise<void> => {
    if (!watched.delete(entry)) return how === 'kill' ? entry.session.kill() : entry.session.close();
    entry.stopReading();
    const ending = how === 'kill' ? entry.session.kill() : entry.session.close();
    if (how === 'kill') kills.push(ending.catch(() => undefined));
    return ending;
  };

  const watch = (session: BrowserSession): BrowserSession => {
    const stderr = session.browser.process()?.stderr ?? undefined;
    let tail = '';
    const onData = (chunk: Buffer | string): void => {
      // A line may arrive in two chunks: keep the end of the previous one.
      const text = tail + chunk.toString();
      if (OUT_OF_MEMORY.test(text)) trip('js-heap');
      tail = text.slice(-64);
    };
    stderr?.on('data', onData);
    const entry: Watched = { session, pid: session.browser.process()?.pid, stopReading: () => stderr?.off('data', onData) };
    watched.add(entry);
    return { ...session, close: () => release(entry, 'close'), kill: () => release(entry, 'kill') };
  };

  return {
    source(inner) {
      return {
        async acquire(opts) {
          const limited = options.jsHeapLimitMB === undefined ? opts : { ...opts, jsHeapLimitMB: options.jsHeapLimitMB };
          const session = await (inner ? inner.acquire(limited) : (options.launch ?? launchBrowser)(limited));
          if (exceeded || stopped) {
            // The render is stopping (or over): this browser is of no use to it.
            await session.kill();
            throw new Error('the render stopped over its memory bound while a browser started');
          }
          return watch(session);
        },
      };
    },
    peakBytes: () => peak,
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const entry of watched) entry.stopReading();
      watched.clear();
      tree.close();
      await Promise.all(kills);
    },
  };
}
