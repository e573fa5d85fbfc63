/**
 * Linux only (reads /proc; elsewhere every reading is 0 and `supported` is false). The memory a
 * few processes and everything below them hold, cheap enough to read four times a second for the
 * whole length of a render.
 *
 * What is counted: each process's resident anonymous and shared memory (RssAnon + RssShmem in
 * /proc/<pid>/status): its heaps, ArrayBuffers, decoded images, compositor buffers. Not counted:
 * resident pages of mapped files (RssFile): the program and its libraries, which every Chromium
 * process maps and the kernel can drop at will. Plain RSS counts Chromium's ~60-80 MB image once
 * per process: a browser with one blank page holds ~110 MB this way but ~520 MB of RSS summed
 * over its seven processes, so a bound on summed RSS would mostly bound the process count.
 *
 * Opening and reading every /proc/<pid>/stat costs ~0.2 ms each on a busy machine, so a full scan
 * of a few hundred processes per reading would cost several percent of a core. Instead each
 * process's parent is read once, when its pid first appears in /proc; only the members of a
 * watched tree are read again, with one pread on a status file kept open. A reading is then one
 * readdir of /proc plus one pread per member. A process never moves into a tree (Linux reparents
 * orphans to init or a subreaper), so a parent read once stays right for the question asked here.
 */
import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { parseStat } from './proc-stat.js';

export interface TreeMemory {
  /** False where /proc cannot be read (macOS, Windows): every reading is then 0. */
  readonly supported: boolean;
  /** Memory in bytes held by each root's whole process tree (the root included), read now. */
  read(roots: readonly number[]): Map<number, number>;
  /** Closes the stat files kept open. */
  close(): void;
}

interface Known {
  ppid: number;
  /** Open only while the process is a member of a watched tree. */
  fd?: number;
}

const buffer = Buffer.alloc(8192);

/** A process's parent and the memory it holds (RssAnon + RssShmem; VmRSS on kernels before 4.5), from /proc/<pid>/status. */
export function parseStatusMemory(raw: string): { ppid: number; bytes: number } {
  const field = (name: string): number | undefined => {
    const match = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(raw);
    return match ? Number(match[1]) : undefined;
  };
  const anon = field('RssAnon');
  const kib = anon === undefined ? (field('VmRSS') ?? 0) : anon + (field('RssShmem') ?? 0);
  return { ppid: field('PPid') ?? 0, bytes: kib * 1024 };
}

/** The memory one process holds now (see parseStatusMemory); 0 when it is gone or /proc is missing. */
export function processMemoryBytes(pid: number): number {
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/status`, 'r');
    const raw = pread(fd);
    return raw ? parseStatusMemory(raw).bytes : 0;
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function pread(fd: number): string | undefined {
  try {
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    return length > 0 ? buffer.toString('latin1', 0, length) : undefined;
  } catch {
    return undefined; // exited
  }
}

export function createTreeMemory(): TreeMemory {
  const known = new Map<number, Known>();
  let supported = true;
  const forget = (pid: number): void => {
    const entry = known.get(pid);
    if (entry?.fd !== undefined) closeSync(entry.fd);
    known.delete(pid);
  };

  const listPids = (): Set<number> | undefined => {
    try {
      const pids = new Set<number>();
      for (const name of readdirSync('/proc')) {
        const code = name.charCodeAt(0);
        if (code >= 48 && code <= 57) pids.add(Number(name));
      }
      return pids;
    } catch {
      supported = false;
      return undefined;
    }
  };

  return {
    get supported() {
      return supported;
    },
    read(roots) {
      const totals = new Map<number, number>(roots.map((root) => [root, 0]));
      const present = supported ? listPids() : undefined;
      if (!present) return totals;
      for (const pid of known.keys()) if (!present.has(pid)) forget(pid);
      for (const pid of present) {
        if (known.has(pid)) continue;
        let fd: number;
        try {
          fd = openSync(`/proc/${pid}/stat`, 'r');
        } catch {
          continue; // exited between readdir and open
        }
        const raw = pread(fd);
        closeSync(fd);
        if (raw) known.set(pid, { ppid: parseStat(raw).ppid });
      }
      const children = new Map<number, number[]>();
      for (const [pid, entry] of known) {
        const list = children.get(entry.ppid);
        if (list) list.push(pid);
        else children.set(entry.ppid, [pid]);
      }
      const members = new Set<number>();
      for (const root of roots) {
        let sum = 0;
        const tree = [root];
        for (let i = 0; i < tree.length; i++) {
          const pid = tree[i]!;
          const entry = known.get(pid);
          if (!entry) continue;
          members.add(pid);
          if (entry.fd === undefined) {
            try {
              entry.fd = openSync(`/proc/${pid}/status`, 'r');
            } catch {
              continue;
            }
          }
          const raw = pread(entry.fd);
          if (!raw) continue;
          const status = parseStatusMemory(raw);
          entry.ppid = status.ppid;
          sum += status.bytes;
          tree.push(...(children.get(pid) ?? []));
        }
        totals.set(root, sum);
      }
      // Processes that left every tree (a browser this watch no longer holds) need no open file.
      for (const [pid, entry] of known) {
        if (entry.fd !== undefined && !members.has(pid)) {
          closeSync(entry.fd);
          entry.fd = undefined;
        }
      }
      return totals;
    },
    close() {
      for (const pid of [...known.keys()]) forget(pid);
    },
  };
}
