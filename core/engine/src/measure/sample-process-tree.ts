/**
 * Linux only (reads /proc). Used by `seekframe benchmark` and the scripts in bench/.
 *
 * Samples the CPU time and memory of this process's descendants from /proc, grouped into
 * classes by executable name. It runs inside the render it measures, so it must cost next to
 * nothing: reading every /proc/<pid>/stat 20 times a second cost ~7% of a core (a third of
 * Node's CPU in a render). So each process's stat file is opened once and re-read with one
 * pread, processes known to be outside the tree are never read again, and the interval is 200 ms.
 *
 * Processes come and go during a render (one browser per worker, one ffmpeg per encode, short
 * ffprobe runs), so every process's CPU is counted as the samples last saw it, and what it spent
 * after its last sample is recovered from reaping: when a parent reaps a child, the kernel adds
 * the child's whole CPU (its own reaped children included) to the parent's cutime/cstime. For
 * this process's own children, watch-child-processes.ts learns each one's total and class at the
 * moment Node reaps it. A process orphaned to init (Chromium's helpers at shutdown) is counted as
 * last seen: never twice, at worst a little low.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CLOCK_TICKS_PER_SECOND, parseStat, type ProcStat } from '../system/proc-stat.js';
import { watchChildProcesses, type ReapedChild } from '../system/watch-child-processes.js';

export type ProcessClass = 'browser' | 'ffmpeg' | 'node' | 'other';

const CLASSES: readonly ProcessClass[] = ['browser', 'ffmpeg', 'node', 'other'];

export function classify(comm: string): ProcessClass {
  if (/chrom|headless_shell/i.test(comm)) return 'browser';
  if (/^ff(mpeg|probe)$/.test(comm)) return 'ffmpeg';
  // The CLI names its process `seekframe <command>` (bin/seekframe.js).
  if (comm === 'node' || comm === 'MainThread' || comm.startsWith('seekframe')) return 'node';
  return 'other';
}

export interface UsageReport {
  cpuSeconds: Record<ProcessClass, number>;
  /** Highest sum of RSS over the whole tree (including this process) seen at one sample. */
  peakRssBytes: number;
  wallSeconds: number;
  /** Share of the machine's cores this tree left unused: 1 - CPU / (wall x cores). */
  idleFraction: number;
  /**
   * Share of the machine's cores that other processes used meanwhile (from /proc/stat). Above a
   * few percent, fps figures say more about the neighbours than about the render.
   */
  othersFraction: number;
}

/** Busy and total CPU seconds of the whole machine since boot (first line of /proc/stat). */
function machineCpu(): { busy: number; total: number } {
  const fields = readProcFile('/proc/stat')?.split('\n')[0]?.trim().split(/\s+/).slice(1, 9).map(Number);
  if (!fields) return { busy: 0, total: 0 };
  const total = fields.reduce((sum, value) => sum + value, 0) / CLOCK_TICKS_PER_SECOND;
  const idle = ((fields[3] ?? 0) + (fields[4] ?? 0)) / CLOCK_TICKS_PER_SECOND;
  return { busy: total - idle, total };
}

const readBuffer = Buffer.alloc(4096);

/** One pread of an open /proc file (the kernel regenerates it on every read at offset 0). */
function readOpen(fd: number): string | undefined {
  try {
    const length = readSync(fd, readBuffer, 0, readBuffer.length, 0);
    return length > 0 ? readBuffer.toString('latin1', 0, length) : undefined;
  } catch {
    return undefined; // the process has exited
  }
}

function readProcFile(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    return readOpen(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface Tracked {
  fd: number;
  ppid: number;
  cls: ProcessClass;
  /** Own and reaped CPU already spent when sampling began (0 for processes started later). */
  baselineSelf: number;
  baselineReaped: number;
  /** Own and reaped CPU at the last sample that saw the process. */
  self: number;
  reaped: number;
  alive: boolean;
}

/** Starts sampling; call the returned function to stop and get the totals. */
export function sampleProcessTree(intervalMs = 200): () => UsageReport {
  const rootPid = process.pid;
  const rootFd = openSync(`/proc/${rootPid}/stat`, 'r');
  const readRoot = (): ProcStat => parseStat(readOpen(rootFd)!);
  const rootStart = readRoot();
  const tracked = new Map<number, Tracked>();
  /** Pids seen outside the tree: never read again (a process cannot join another's tree). */
  const outside = new Set<number>();
  let peakRss = 0;
  let firstSample = true;
  const startedAt = performance.now();
  const machineStart = machineCpu();

  // Node's own children, each with its class, as Node reaps them.
  const children = watchChildProcesses({
    classify,
    readReaped: () => readRoot().reapedCpu,
    readChild: (fd) => {
      const raw = readOpen(fd);
      if (!raw) return undefined;
      const stat = parseStat(raw);
      return stat.selfCpu + stat.reapedCpu;
    },
    treeSeen: (pid) => treeSeen(tracked, pid),
  });

  const sample = (): void => {
    const stats = new Map<number, ProcStat>();
    const read = (pid: number, fd: number): void => {
      const raw = readOpen(fd);
      if (raw) stats.set(pid, parseStat(raw));
    };
    stats.set(rootPid, readRoot());
    for (const [pid, entry] of tracked) if (entry.alive) read(pid, entry.fd);
    const fresh = new Map<number, number>();
    for (const name of readdirSync('/proc')) {
      const code = name.charCodeAt(0);
      if (code < 48 || code > 57) continue;
      const pid = Number(name);
      if (pid === rootPid || tracked.has(pid) || outside.has(pid)) continue;
      try {
        const fd = openSync(`/proc/${pid}/stat`, 'r');
        fresh.set(pid, fd);
        read(pid, fd);
      } catch {
        // exited between readdir and open
      }
    }
    // Walk down from the root: a new pid belongs to the tree when its parent does.
    const inTree = new Set<number>([rootPid]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [pid, stat] of stats) {
        if (!inTree.has(pid) && inTree.has(stat.ppid)) {
          inTree.add(pid);
          grew = true;
        }
      }
    }
    for (const [pid, fd] of fresh) {
      const stat = stats.get(pid);
      if (inTree.has(pid) && stat) {
        tracked.set(pid, {
          fd,
          ppid: stat.ppid,
          cls: classify(stat.comm),
          baselineSelf: firstSample ? stat.selfCpu : 0,
          baselineReaped: firstSample ? stat.reapedCpu : 0,
          self: stat.selfCpu,
          reaped: stat.reapedCpu,
          alive: true,
        });
      } else {
        closeSync(fd);
        outside.add(pid);
      }
    }
    let rss = stats.get(rootPid)!.rssBytes;
    for (const [pid, entry] of tracked) {
      if (!entry.alive) continue;
      const stat = stats.get(pid);
      if (stat && inTree.has(pid)) {
        entry.self = stat.selfCpu;
        entry.reaped = stat.reapedCpu;
        rss += stat.rssBytes;
      } else {
        entry.alive = false;
        closeSync(entry.fd);
      }
    }
    peakRss = Math.max(peakRss, rss);
    firstSample = false;
  };

  sample();
  const timer = setInterval(sample, intervalMs);
  return () => {
    clearInterval(timer);
    sample();
    children.stop();
    const rootEnd = readRoot();
    const cpuSeconds = cpuByClass(tracked, children.reaped, rootPid, rootEnd.selfCpu - rootStart.selfCpu);
    // Reaped by Node with no exit event seen (a child started before sampling began).
    cpuSeconds.other += children.unexplained();
    closeSync(rootFd);
    for (const entry of tracked.values()) if (entry.alive) closeSync(entry.fd);
    const wallSeconds = (performance.now() - startedAt) / 1000;
    const used = CLASSES.reduce((sum, cls) => sum + cpuSeconds[cls], 0);
    const capacity = wallSeconds * availableParallelism();
    const idleFraction = capacity > 0 ? Math.max(0, 1 - used / capacity) : 0;
    const machineEnd = machineCpu();
    const othersFraction = capacity > 0 ? Math.min(1, Math.max(0, (machineEnd.busy - machineStart.busy - used) / capacity)) : 0;
    return { cpuSeconds, peakRssBytes: peakRss, wallSeconds, idleFraction, othersFraction };
  };
}

/**
 * CPU per class: what the samples saw of every process, plus what its reaper learned about the
 * rest. A dead process belongs to the process that reaped it: its nearest ancestor still alive,
 * or, for this process's own children, the child itself (its exit event carries the whole total).
 */
function cpuByClass(
  tracked: ReadonlyMap<number, Tracked>,
  reapedChildren: ReadonlyMap<number, ReapedChild<ProcessClass>>,
  rootPid: number,
  rootOwn: number,
): Record<ProcessClass, number> {
  const cpu: Record<ProcessClass, number> = { browser: 0, ffmpeg: 0, node: rootOwn, other: 0 };
  /** Lifetime own CPU of the dead processes each reaper's total already includes. */
  const seenDead = new Map<number, number>();
  for (const [pid, entry] of tracked) {
    cpu[entry.cls] += entry.self - entry.baselineSelf;
    if (entry.alive) continue;
    let reaper = pid;
    while (tracked.get(reaper)?.alive === false && tracked.get(reaper)!.ppid !== rootPid) reaper = tracked.get(reaper)!.ppid;
    // An orphan (its reaper is outside the tree): counted as seen, nobody reports the rest.
    if (tracked.has(reaper) || reaper === pid) seenDead.set(reaper, (seenDead.get(reaper) ?? 0) + entry.self);
  }
  for (const [pid, entry] of tracked) {
    if (!entry.alive) continue;
    cpu[entry.cls] += Math.max(0, entry.reaped - entry.baselineReaped - (seenDead.get(pid) ?? 0));
  }
  for (const [pid, child] of reapedChildren) {
    const entry = tracked.get(pid);
    cpu[entry?.cls ?? child.cls] += Math.max(0, child.cpu - (entry?.baselineReaped ?? 0) - (seenDead.get(pid) ?? 0));
  }
  return cpu;
}

/** Own CPU last seen of `pid` and every tracked process below it (lifetime, baselines included). */
function treeSeen(tracked: ReadonlyMap<number, Tracked>, pid: number): number {
  const below = new Map<number, number[]>();
  for (const [child, entry] of tracked) {
    const list = below.get(entry.ppid) ?? [];
    list.push(child);
    below.set(entry.ppid, list);
  }
  let sum = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const next = stack.pop()!;
    sum += tracked.get(next)?.self ?? 0;
    stack.push(...(below.get(next) ?? []));
  }
  return sum;
}
