import { readdirSync, readFileSync } from 'node:fs';
import { isBrowserMain, type ProcessKind, processKind } from './process-kind.js';

/** One process seen below the watched one. */
export interface SeenProcess {
  kind: ProcessKind;
  browserMain: boolean;
  /** CPU seconds (user + system) at the last reading: a process is read until it is gone. */
  cpuSeconds: number;
}

export interface ProcessTreeWatch {
  /** Every process seen below the root so far, by `pid:starttime`. */
  seen(): Map<string, SeenProcess>;
  stop(): void;
}

const TICKS_PER_SECOND = 100;

/**
 * Linux only (reads /proc). Every `intervalMs`, walks the tree below `root` through
 * /proc/<pid>/task/<tid>/children (only this tree is read, never the whole of /proc, so a reading
 * costs a few milliseconds on a machine with hundreds of processes) and records each process
 * with its kind and its CPU time. A process that lives less than one interval may be missed:
 * the spawn hook in profile-setup.ts counts the commands a test starts itself.
 */
export function watchProcessTree(root: number, intervalMs = 200): ProcessTreeWatch {
  const seen = new Map<string, SeenProcess>();
  const read = (): void => {
    for (let queue = childrenOf(root); queue.length > 0; ) {
      const pid = queue.shift()!;
      const stat = readStat(pid);
      if (!stat) continue;
      const key = `${pid}:${stat.startTime}`;
      let entry = seen.get(key);
      if (!entry) {
        const argv = readArgv(pid) ?? [stat.comm];
        entry = { kind: processKind(argv), browserMain: isBrowserMain(argv), cpuSeconds: 0 };
        seen.set(key, entry);
      }
      entry.cpuSeconds = stat.cpuTicks / TICKS_PER_SECOND;
      queue.push(...childrenOf(pid));
    }
  };
  const timer = setInterval(read, intervalMs);
  timer.unref();
  return {
    seen: () => {
      read();
      return seen;
    },
    stop: () => clearInterval(timer),
  };
}

function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const task of tasks) {
    try {
      for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ')) if (child) children.push(Number(child));
    } catch {
      // the thread ended meanwhile
    }
  }
  return children;
}

function readStat(pid: number): { comm: string; startTime: string; cpuTicks: number } | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = raw.lastIndexOf(')');
    // Fields after the command name, from field 3 (state): utime is field 14, stime 15, starttime 22.
    const fields = raw.slice(close + 2).split(' ');
    return { comm: raw.slice(raw.indexOf('(') + 1, close), startTime: fields[19]!, cpuTicks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

function readArgv(pid: number): string[] | undefined {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return argv.length > 0 ? argv : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds of this process and of its children it has waited for (utime, stime, cutime, cstime). */
export function ownAndReapedCpuSeconds(): { own: number; children: number } {
  const raw = readFileSync('/proc/self/stat', 'utf8');
  const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
  return {
    own: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
    children: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND,
  };
}
