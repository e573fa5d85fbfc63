/**
 * Linux only (reads /proc; elsewhere `read` answers undefined). The CPU time a process and
 * everything below it use, cheap enough to read twice per captured frame: a browser's processes
 * (its renderer, GPU process, utilities) are found by walking /proc/<pid>/task/<tid>/children once,
 * and again every REFRESH_READS readings, and each one's stat file is kept open and re-read with
 * one pread. CPU time, not wall time: what a frame costs the browser stays the same when other
 * processes hold the machine's cores, and its wall time does not.
 *
 * What a reading counts: the user + system time of every process of the tree since it was first
 * seen (the kernel's exact sum, in 10 ms clock ticks). A process that ends between two readings
 * takes its last interval with it; a new one counts from when it is first seen.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { CLOCK_TICKS_PER_SECOND } from './proc-stat.js';

export interface TreeCpu {
  /** CPU seconds the tree has used since this reader started; undefined where /proc cannot be read. */
  read(): number | undefined;
  /** Closes the stat files kept open. */
  close(): void;
}

/** Readings between two walks of the tree (a browser rarely starts a process while it captures). */
const REFRESH_READS = 50;

interface Member {
  fd: number;
  /** Clock ticks at the last reading. */
  ticks: number;
}

const buffer = Buffer.alloc(1024);

/** utime + stime, in clock ticks, from one pread of an open /proc/<pid>/stat; undefined once it is gone. */
function readTicks(fd: number): number | undefined {
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    if (length <= 0) return undefined;
    const raw = buffer.toString('latin1', 0, length);
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = raw.slice(raw.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Every process below `root`, and `root` itself, now. */
function treeOf(root: number): number[] {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    const pid = tree[i]!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').split(' ')) if (child) tree.push(Number(child));
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return tree;
}

export function createTreeCpu(root: number): TreeCpu {
  const members = new Map<number, Member>();
  let total = 0;
  let reads = 0;
  let supported = process.platform === 'linux';

  const refresh = (): void => {
    const now = new Set(treeOf(root));
    for (const [pid, member] of members) {
      if (now.has(pid)) continue;
      closeSync(member.fd);
      members.delete(pid);
    }
    for (const pid of now) {
      if (members.has(pid)) continue;
      let fd: number;
      try {
        fd = openSync(`/proc/${pid}/stat`, 'r');
      } catch {
        if (pid === root) supported = members.size > 0;
        continue;
      }
      const ticks = readTicks(fd);
      if (ticks === undefined) closeSync(fd);
      else members.set(pid, { fd, ticks });
    }
  };

  return {
    read() {
      if (!supported) return undefined;
      if (reads++ % REFRESH_READS === 0) refresh();
      if (!supported) return undefined;
      for (const [pid, member] of members) {
        const ticks = readTicks(member.fd);
        if (ticks === undefined) {
          closeSync(member.fd);
          members.delete(pid);
          continue;
        }
        total += Math.max(0, ticks - member.ticks);
        member.ticks = ticks;
      }
      return total / CLOCK_TICKS_PER_SECOND;
    },
    close() {
      for (const member of members.values()) closeSync(member.fd);
      members.clear();
    },
  };
}
