/**
 * Linux only. What this process's own children cost, each with the class of its executable, for
 * sampleProcessTree. The kernel adds a child's whole CPU (its reaped descendants included) to its
 * parent's cutime/cstime when the parent reaps it, and Node reaps a child just before the child's
 * `exit` event, so the step in Node's cutime at that event is that child's exact total: an ffmpeg
 * that lived 30 ms between two tree samples still counts as encode CPU.
 *
 * When the event loop is late (a busy machine), libuv reaps several children in one pass (say
 * ffmpeg and a browser closing at the end of a render) and the first exit event sees all of their
 * CPU. So every child's own stat is also read every 10 ms (a pread on a file kept open: a few
 * microseconds), and a child reaped in the same pass keeps what was last seen of it and of its
 * descendants: the split is then off by what it did after it was last seen, and the total is exact.
 */
import type { ChildProcess } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';

export interface ReapedChild<Class extends string> {
  cls: Class;
  /** CPU seconds of the child's whole life, descendants it reaped included. */
  cpu: number;
}

export interface ChildWatch<Class extends string> {
  /** Children reaped so far, by pid. */
  readonly reaped: ReadonlyMap<number, ReapedChild<Class>>;
  /** Node's reaped CPU (cutime + cstime) that no exit event has explained yet. */
  unexplained(): number;
  stop(): void;
}

interface Watched<Class extends string> {
  cls: Class;
  fd: number | undefined;
  /** Own + reaped CPU at the last read (lifetime). */
  seen: number;
}

export interface WatchOptions<Class extends string> {
  classify(executable: string): Class;
  /** Node's own reaped CPU seconds now (its cutime + cstime). */
  readReaped(): number;
  /** A child's own and reaped CPU seconds from its open stat file; undefined once it is gone. */
  readChild(fd: number): number | undefined;
  /**
   * CPU seconds seen of the child's whole tree (its live descendants too: a browser's work is in
   * its renderers until it reaps them), from the caller's slower tree samples.
   */
  treeSeen?(pid: number): number;
  pollMs?: number;
}

export function watchChildProcesses<Class extends string>(opts: WatchOptions<Class>): ChildWatch<Class> {
  const reaped = new Map<number, ReapedChild<Class>>();
  const watched = new Map<ChildProcess, Watched<Class>>();
  let reapedSoFar = opts.readReaped();
  let pool = 0;

  const read = (entry: Watched<Class>): void => {
    if (entry.fd === undefined) return;
    const cpu = opts.readChild(entry.fd);
    if (cpu !== undefined) entry.seen = cpu;
  };
  const forget = (child: ChildProcess, entry: Watched<Class>): void => {
    if (entry.fd !== undefined) closeSync(entry.fd);
    entry.fd = undefined;
    watched.delete(child);
  };

  const onChild = (message: unknown): void => {
    const child = (message as { process?: ChildProcess }).process;
    if (!child) return;
    const entry: Watched<Class> = { cls: opts.classify(''), fd: undefined, seen: 0 };
    watched.set(child, entry);
    child.once('spawn', () => {
      entry.cls = opts.classify(path.basename(child.spawnfile ?? ''));
      try {
        entry.fd = openSync(`/proc/${child.pid}/stat`, 'r');
      } catch {
        // already gone: its exit event still counts it
      }
    });
    child.once('exit', () => {
      const now = opts.readReaped();
      pool += now - reapedSoFar;
      reapedSoFar = now;
      // Children reaped in the same pass as this one have their exit events still to come: leave
      // them what was seen of them; this child takes the rest.
      let othersSeen = 0;
      for (const [other, info] of watched) {
        if (other !== child && isReaped(other)) othersSeen += Math.max(info.seen, opts.treeSeen?.(other.pid!) ?? 0);
      }
      const cpu = Math.max(0, pool - othersSeen);
      pool -= cpu;
      if (child.pid !== undefined) reaped.set(child.pid, { cls: entry.cls, cpu });
      forget(child, entry);
    });
  };
  subscribe('child_process', onChild);
  const timer = setInterval(() => {
    for (const entry of watched.values()) read(entry);
  }, opts.pollMs ?? 10);

  return {
    reaped,
    unexplained: () => pool + Math.max(0, opts.readReaped() - reapedSoFar),
    stop: () => {
      clearInterval(timer);
      unsubscribe('child_process', onChild);
      for (const [child, entry] of watched) forget(child, entry);
    },
  };
}

/** True once Node has reaped the child (its pid is gone), even if its exit event has not run yet. */
function isReaped(child: ChildProcess): boolean {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return false;
  try {
    process.kill(child.pid, 0);
    return false; // running, or a zombie not reaped yet
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
