/**
 * Linux only (reads /proc). Used by `seekframe benchmark` and the scripts in bench/.
 *
 * Samples the CPU time and memory of this process's descendants from /proc, grouped into
 * classes by executable name. Processes come and go during a render (one browser per worker, one
 * ffmpeg per encode, short ffprobe runs), so each pid's last-seen cumulative CPU is kept after it
 * exits. Sampling misses at most one interval of a process's life; at 50 ms that is noise next
 * to a render's seconds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

export type ProcessClass = 'browser' | 'ffmpeg' | 'node' | 'other';

const CLOCK_TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux x86_64
const PAGE_SIZE_BYTES = 4096;

interface ProcStat {
  pid: number;
  ppid: number;
  comm: string;
  cpuSeconds: number;
  rssBytes: number;
}

function readStat(pid: number): ProcStat | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may contain spaces: split around the last ')'.
    const open = raw.indexOf('(');
    const close = raw.lastIndexOf(')');
    const comm = raw.slice(open + 1, close);
    const fields = raw.slice(close + 2).split(' ');
    // fields[0] is state (field 3 in proc(5)); utime=14, stime=15, rss=24 -> offsets 11, 12, 21.
    const ppid = Number(fields[1]);
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const rssPages = Number(fields[21]);
    return { pid, ppid, comm, cpuSeconds: (utime + stime) / CLOCK_TICKS_PER_SECOND, rssBytes: rssPages * PAGE_SIZE_BYTES };
  } catch {
    return undefined; // exited between readdir and read
  }
}

export function classify(comm: string): ProcessClass {
  if (/chrom|headless_shell/i.test(comm)) return 'browser';
  if (/^ff(mpeg|probe)$/.test(comm)) return 'ffmpeg';
  if (comm === 'node' || comm === 'MainThread') return 'node';
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
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0) / CLOCK_TICKS_PER_SECOND;
    const idle = ((fields[3] ?? 0) + (fields[4] ?? 0)) / CLOCK_TICKS_PER_SECOND;
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** Starts sampling; call the returned function to stop and get the totals. */
export function sampleProcessTree(intervalMs = 50): () => UsageReport {
  const rootPid = process.pid;
  const rootStart = readStat(rootPid);
  const lastSeen = new Map<number, { cls: ProcessClass; cpu: number; baseline: number }>();
  let peakRss = 0;
  const startedAt = performance.now();
  const machineStart = machineCpu();

  const sample = () => {
    const stats: ProcStat[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readStat(Number(entry));
      if (stat) stats.push(stat);
    }
    const children = new Map<number, ProcStat[]>();
    for (const s of stats) {
      const list = children.get(s.ppid) ?? [];
      list.push(s);
      children.set(s.ppid, list);
    }
    let rss = 0;
    const stack = stats.filter((s) => s.pid === rootPid);
    while (stack.length > 0) {
      const s = stack.pop()!;
      rss += s.rssBytes;
      const known = lastSeen.get(s.pid);
      if (known) known.cpu = s.cpuSeconds;
      else {
        // The root already used CPU before sampling began; count only what the render adds.
        const baseline = s.pid === rootPid ? (rootStart?.cpuSeconds ?? 0) : 0;
        lastSeen.set(s.pid, { cls: s.pid === rootPid ? 'node' : classify(s.comm), cpu: s.cpuSeconds, baseline });
      }
      stack.push(...(children.get(s.pid) ?? []));
    }
    peakRss = Math.max(peakRss, rss);
  };

  sample();
  const timer = setInterval(sample, intervalMs);
  return () => {
    clearInterval(timer);
    sample();
    const cpuSeconds: Record<ProcessClass, number> = { browser: 0, ffmpeg: 0, node: 0, other: 0 };
    for (const { cls, cpu, baseline } of lastSeen.values()) cpuSeconds[cls] += cpu - baseline;
    const wallSeconds = (performance.now() - startedAt) / 1000;
    const used = cpuSeconds.browser + cpuSeconds.ffmpeg + cpuSeconds.node + cpuSeconds.other;
    const capacity = wallSeconds * availableParallelism();
    const idleFraction = capacity > 0 ? Math.max(0, 1 - used / capacity) : 0;
    const machineEnd = machineCpu();
    const othersFraction = capacity > 0 ? Math.min(1, Math.max(0, (machineEnd.busy - machineStart.busy - used) / capacity)) : 0;
    return { cpuSeconds, peakRssBytes: peakRss, wallSeconds, idleFraction, othersFraction };
  };
}
