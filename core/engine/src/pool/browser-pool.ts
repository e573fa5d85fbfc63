import { SeekframeError } from '@seekframe/composition';
import { launchBrowser, type BrowserSession, type LaunchOptions } from '../browser/launch-browser.js';
import { processTree, unpinProcessTree } from '../system/pin-to-cpu.js';
import { processMemoryBytes } from '../system/tree-memory.js';
import type { BrowserContext } from 'puppeteer-core';
import type { CaptureMode } from '../browser/browser-flags.js';
import type { TargetPage } from '../browser/open-target-page.js';
import { aheadKind, openContextAhead, type ContextAhead } from './context-ahead.js';
import { relayablePort } from './proxy-relay.js';
import { splitProxyFlags, type ContextProxy } from './context-proxy.js';
import { settledCrashError } from '../capture/classify-capture-failure.js';
import { settleWithin } from '../capture/page-ready.js';

/**
 * A warm browser pool: renders in one process (batch rows, server renders, warm Lambda
 * invocations) reuse browsers that are already running instead of paying a browser start each.
 *
 * Isolation: a lease is one browser used by one render worker at a time, and every lease gets a
 * fresh browser context (Chromium's incognito-like profile: its own cookies, localStorage,
 * IndexedDB, Cache Storage, HTTP cache and service workers, and its own renderer processes, so
 * nothing a page loaded or defined in memory — fonts, globals — is there for the next page).
 * Ending the lease closes the context, which discards all of it. A browser whose context does
 * not close cleanly, that crashed, or that a lease killed (a page stopped answering) is never
 * handed out again: it is killed and a new one launched on the next acquire.
 *
 * Bounds: at most `maxBrowsers` browsers belong to the pool; an acquire beyond that never waits
 * (a render holding some workers could otherwise wait on another that waits on it) but launches a
 * one-off browser that is closed when its lease ends. A browser is also retired when the pool's
 * browsers together hold more than `maxMemoryBytes` (resident memory of every process, without
 * mapped files: see tree-memory.ts) at release, or after
 * `maxRendersPerBrowser` leases. Idle browsers close after `idleCloseMs`.
 *
 * Ahead: as soon as a browser is leased, the pool opens its next context and blank page beside the
 * lease (context-ahead.ts), so the next render, even one that follows at once, skips the renderer
 * start. Contexts do not see each other; a sandboxed render's context reaches its proxy through a
 * relay bound only while it is leased, so an unleased context reaches nothing.
 */
export interface BrowserPoolOptions {
  /** Browsers the pool keeps, idle or leased (default 2). */
  maxBrowsers?: number;
  /** Idle browsers close after this long without a lease (default 60 s; 0 = at once). */
  idleCloseMs?: number;
  /** At release, a browser is closed instead of kept when the pool's browsers use more (default 2 GiB). */
  maxMemoryBytes?: number;
  /** A browser is closed after this many leases, to bound slow leaks in long-running servers (default 100). */
  maxRendersPerBrowser?: number;
  /**
   * Open each pooled browser's next context and page beside its current lease (default true):
   * ~60 ms less per warm render for one extra renderer process (~30-40 MB) per pooled browser.
   */
  openAhead?: boolean;
  /** How a browser starts (default launchBrowser); tests pass a counting wrapper. */
  launch?: (opts: LaunchOptions) => Promise<BrowserSession>;
}

export interface BrowserPoolStats {
  /** Browsers the pool holds now, idle and leased. */
  browsers: number;
  idle: number;
  leased: number;
  /** One-off browsers leased beyond maxBrowsers right now. */
  overflow: number;
  maxBrowsers: number;
  idleCloseMs: number;
  maxMemoryBytes: number;
  /** Resident memory of every process of the pool's browsers, without mapped files (Linux; 0 elsewhere). */
  rssBytes: number;
  /** Since the pool started: browsers launched, leases served by a warm browser, browsers replaced (crashed, killed, tainted), closed when idle. */
  launched: number;
  reused: number;
  replaced: number;
  closedIdle: number;
  /** Leases that got a context (and page) opened ahead of them. */
  openedAhead: number;
}

/** Where a render's browsers come from: a warm pool, or anything else that hands out sessions the same way. */
export type BrowserSource = Pick<BrowserPool, 'acquire'>;

export interface BrowserPool {
  /**
   * A browser for one render worker, in a fresh isolated context. `--proxy-server` and
   * `--proxy-bypass-list` in `browser.extraArgs` (the network sandbox) become the context's own
   * proxy, so sandboxed and open renders share browsers. The session's close() ends the lease
   * (the context is closed, the browser kept when healthy); kill() kills the browser.
   */
  acquire(opts: LaunchOptions): Promise<BrowserSession>;
  stats(): BrowserPoolStats;
  /** Closes every browser, idle or leased, and refuses further acquires. */
  close(): Promise<void>;
}

interface PooledBrowser {
  session: BrowserSession;
  key: string;
  mode: CaptureMode;
  /** The next lease's context, opening or open (undefined when it failed). */
  ahead?: Promise<ContextAhead | undefined>;
  leases: number;
  leased: boolean;
  idleTimer?: NodeJS.Timeout;
}

/** How long closing a lease's context may take before the browser counts as tainted. */
const CONTEXT_CLOSE_MS = 5_000;

export function createBrowserPool(options: BrowserPoolOptions = {}): BrowserPool {
  const { maxBrowsers, idleCloseMs, maxMemoryBytes, maxRenders, launch, openAhead } = poolSettings(options);
  const pooled = new Set<PooledBrowser>();
  const overflow = new Set<BrowserSession>();
  let closed = false;
  const counts = { launched: 0, reused: 0, replaced: 0, closedIdle: 0, openedAhead: 0 };

  const retire = async (entry: PooledBrowser, how: 'close' | 'kill'): Promise<void> => {
    clearTimeout(entry.idleTimer);
    pooled.delete(entry);
    // The browser takes the context with it; the relay is ours to close once the opening settles
    // (not awaited: an opening cut short by the close only gives up after its own timeout).
    void takeAhead(entry).then((ahead) => ahead?.relay?.close());
    await (how === 'kill' ? entry.session.kill() : entry.session.close());
  };

  const startLaunch = async (opts: LaunchOptions, launchArgs: string[]): Promise<BrowserSession> => {
    counts.launched++;
    return launch(sharedLaunchOptions(opts, launchArgs));
  };

  /**
   * A lease of `session` in a fresh context. When the context does not open, the browser is killed
   * (never handed out again) and the failure thrown: classified for the render when `from` is
   * 'new' (the caller throws it on), as it came when 'warm' (acquire drops it and moves on to a
   * new browser, so it waits for no cause).
   */
  const lease = async (
    entry: PooledBrowser | undefined,
    session: BrowserSession,
    proxy: ContextProxy,
    from: 'new' | 'warm',
    ahead?: ContextAhead,
  ): Promise<BrowserSession> => {
    let context;
    try {
      context = ahead?.context ?? (await session.browser.createBrowserContext(proxy));
    } catch (error) {
      // Classified before the kill: a killed browser is disconnected whatever happened, so every
      // failure would read as a crash. One that died since it started (or since its last lease)
      // is a crash, which a render reports as such, not a capture failure.
      const failure = from === 'new' ? await settledCrashError(session, error, 'before a render could use it') : error;
      // Never reuse it; the caller launches a new one.
      if (entry) {
        counts.replaced++;
        await retire(entry, 'kill');
      } else {
        overflow.delete(session);
        await session.kill();
      }
      throw failure;
    }
    // From now on the relay hands the context's connections to this render's own proxy. Only the
    // relay is kept for the end: a closure over `ahead` kept its page (and so the render's page)
    // alive in the idle timer below until the browser closed.
    const relay = ahead?.relay;
    relay?.bind(relayablePort(proxy.proxyServer ?? '')!);
    let ended: Promise<void> | undefined;
    const end = (how: 'release' | 'kill'): Promise<void> => {
      ended ??= (async () => {
        if (!entry) {
          overflow.delete(session);
          return how === 'kill' ? session.kill() : session.close();
        }
        const tainted = how === 'kill' || !session.browser.connected || (await closedWithin(context, CONTEXT_CLOSE_MS)) !== true;
        await relay?.close();
        if (tainted) {
          counts.replaced++;
          return retire(entry, 'kill');
        }
        entry.leased = false;
        await unpin(session);
        if (closed || entry.leases >= maxRenders || poolRss(pooled) > maxMemoryBytes) return retire(entry, 'close');
        entry.idleTimer = setTimeout(() => {
          if (entry.leased) return;
          counts.closedIdle++;
          void retire(entry, 'close');
        }, idleCloseMs);
        entry.idleTimer.unref();
      })();
      return ended;
    };
    return leasedSession(session, context, ahead?.page, end);
  };

  /** Opens the browser's next context now, of the kind its current lease needs (the likeliest next one); once per lease. */
  const prepareAhead = (entry: PooledBrowser, proxy: ContextProxy): void => {
    const kind = aheadKind(proxy);
    if (!openAhead || kind === undefined || entry.ahead !== undefined || !pooled.has(entry)) return;
    const opening = openContextAhead(entry.session.browser, entry.mode, kind).catch(() => undefined);
    entry.ahead = opening;
  };

  return {
    async acquire(opts) {
      if (closed) throw poolClosedError('The browser pool was closed; no render can start in it.');
      const { launchArgs, proxy } = splitProxyFlags(opts.browser.extraArgs ?? []);
      const key = browserKey(opts, launchArgs);
      for (const entry of pooled) {
        if (entry.leased || entry.key !== key) continue;
        if (!entry.session.browser.connected) {
          counts.replaced++;
          await retire(entry, 'kill');
          continue;
        }
        clearTimeout(entry.idleTimer);
        entry.leased = true;
        entry.leases++;
        const ahead = await takeFittingAhead(entry, proxy);
        try {
          const session = await lease(entry, entry.session, proxy, 'warm', ahead);
          counts.reused++;
          if (ahead) counts.openedAhead++;
          prepareAhead(entry, proxy);
          return session;
        } catch {
          // That warm browser was dead: fall through to a new one.
        }
      }
      // Make room: an idle browser of another shape gives way to this one.
      if (pooled.size >= maxBrowsers) {
        const idle = [...pooled].find((entry) => !entry.leased);
        if (idle) await retire(idle, 'close');
      }
      if (pooled.size < maxBrowsers) {
        const entry: PooledBrowser = { session: undefined as unknown as BrowserSession, key, mode: opts.mode, leases: 1, leased: true };
        pooled.add(entry); // counted while it starts, so concurrent acquires respect the bound
        try {
          entry.session = await startLaunch(opts, launchArgs);
        } catch (error) {
          pooled.delete(entry);
          throw error;
        }
        if (closed) {
          await retire(entry, 'close');
          throw poolClosedError('The browser pool was closed while a browser started.');
        }
        const session = await lease(entry, entry.session, proxy, 'new');
        prepareAhead(entry, proxy);
        return session;
      }
      const session = await startLaunch(opts, launchArgs);
      overflow.add(session);
      return lease(undefined, session, proxy, 'new');
    },
    stats: () => poolStats(pooled, overflow.size, { maxBrowsers, idleCloseMs, maxMemoryBytes }, counts),
    async close() {
      closed = true;
      const entries = [...pooled].filter((entry) => entry.session !== undefined);
      await Promise.allSettled([...entries.map((entry) => retire(entry, 'close')), ...[...overflow].map((session) => session.close())]);
      overflow.clear();
    },
  };
}

// The helpers below need nothing of a pool's state but their arguments; createBrowserPool above
// keeps what touches its browsers, counts and closed flag. See "Stateful objects" in
// docs/contributing/architecture.md.

/** The pool's settings with their defaults; a maxBrowsers that is not a whole number >= 0 is refused. */
function poolSettings(options: BrowserPoolOptions) {
  const maxBrowsers = options.maxBrowsers ?? 2;
  if (!Number.isInteger(maxBrowsers) || maxBrowsers < 0) {
    throw new SeekframeError(
      'invalid-options',
      `The browser pool's maxBrowsers must be a whole number of at least 0, got ${maxBrowsers}.`,
      { stage: 'config', details: { field: 'maxBrowsers' } },
    );
  }
  return {
    maxBrowsers,
    idleCloseMs: options.idleCloseMs ?? 60_000,
    maxMemoryBytes: options.maxMemoryBytes ?? 2 * 1024 ** 3,
    maxRenders: options.maxRendersPerBrowser ?? 100,
    launch: options.launch ?? launchBrowser,
    openAhead: options.openAhead ?? true,
  };
}

/** Which pooled browsers can serve a render: the same binary, mode, size and launch flags. */
function browserKey(opts: LaunchOptions, launchArgs: string[]): string {
  // The heap limit is a launch flag: a browser serves only renders under the same limit.
  return JSON.stringify([
    opts.browser.path,
    opts.browser.kind,
    opts.mode,
    opts.gpu ?? false,
    opts.width,
    opts.height,
    opts.scale ?? 1,
    opts.jsHeapLimitMB ?? null,
    launchArgs,
  ]);
}

/** A render's launch options for a browser the pool keeps: its own flags, and no abort signal. */
function sharedLaunchOptions(opts: LaunchOptions, launchArgs: string[]): LaunchOptions {
  // A render's abort signal would kill the browser with it; a pooled browser outlives the render.
  const { signal: _render, ...shared } = opts;
  return { ...shared, browser: { ...opts.browser, extraArgs: launchArgs } };
}

/** Takes the browser's context opened ahead, if any (the caller uses or discards it). */
function takeAhead(entry: PooledBrowser): Promise<ContextAhead | undefined> {
  const ahead = entry.ahead ?? Promise.resolve(undefined);
  entry.ahead = undefined;
  return ahead;
}

/** Takes the browser's context opened ahead when it is of the kind this lease needs; one of another kind is discarded. */
async function takeFittingAhead(entry: PooledBrowser, proxy: ContextProxy): Promise<ContextAhead | undefined> {
  const ahead = await takeAhead(entry);
  if (ahead && ahead.kind !== aheadKind(proxy)) {
    await ahead.discard();
    return undefined;
  }
  return ahead;
}

function poolClosedError(message: string): SeekframeError {
  return new SeekframeError('browser-launch-failed', message, { stage: 'browser' });
}

function poolStats(
  pooled: ReadonlySet<PooledBrowser>,
  overflow: number,
  settings: Pick<BrowserPoolStats, 'maxBrowsers' | 'idleCloseMs' | 'maxMemoryBytes'>,
  counts: Pick<BrowserPoolStats, 'launched' | 'reused' | 'replaced' | 'closedIdle' | 'openedAhead'>,
): BrowserPoolStats {
  const list = [...pooled];
  return {
    browsers: list.length,
    idle: list.filter((entry) => !entry.leased).length,
    leased: list.filter((entry) => entry.leased).length,
    overflow,
    ...settings,
    rssBytes: poolRss(pooled),
    ...counts,
  };
}

/** The session a lease hands out: the browser's, with the lease's context and page, and its own close and kill. */
function leasedSession(
  session: BrowserSession,
  context: BrowserContext,
  page: TargetPage | undefined,
  end: (how: 'release' | 'kill') => Promise<void>,
): BrowserSession {
  let openedPage = page;
  return {
    browser: session.browser,
    mode: session.mode,
    executablePath: session.executablePath,
    context,
    takeOpenedPage: () => {
      const taken = openedPage;
      openedPage = undefined;
      return taken;
    },
    close: () => end('release'),
    kill: () => end('kill'),
  };
}

/** Resident memory of the browsers' processes (those still starting count 0). */
function poolRss(entries: Iterable<PooledBrowser>): number {
  let total = 0;
  for (const entry of entries) {
    const pid = entry.session?.browser.process()?.pid; // undefined while it starts
    if (pid === undefined) continue;
    // The same measure as a render's memory bound (tree-memory.ts): RSS without mapped files.
    for (const member of processTree(pid)) total += processMemoryBytes(member);
  }
  return total;
}

/** A worker of a multi-worker render pinned this browser to one CPU: give it back all of them. */
async function unpin(session: BrowserSession): Promise<void> {
  const pid = session.browser.process()?.pid;
  if (pid !== undefined) await unpinProcessTree(pid);
}

/** True when the context closed within `ms`; false when it failed or took longer ('timeout'). */
function closedWithin(context: BrowserContext, ms: number): Promise<boolean | 'timeout'> {
  return settleWithin(
    context.close().then(
      () => true,
      () => false,
    ),
    ms,
  );
}
