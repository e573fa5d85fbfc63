import { readdirSync, readFileSync } from 'node:fs';
import { parseStat } from './proc-stat.js';
import { runProcess } from './run-process.js';

/**
 * Why capture workers are pinned, one CPU each: a worker's frame passes through several
 * processes of its browser in turn (renderer, compositor, the browser process that encodes the
 * screenshot). Left to the scheduler, two browsers on 2 cores keep waking each other's threads on
 * the other core; pinned, each browser's hand-offs stay on one warm core. Measured on 2 cores at
 * 1080p (bench/compositions/showcase-1080p): capture alone 56-59 -> 62-64 fps, and in renders
 * ~2-4 points less idle CPU (+0-7% fps). ffmpeg is never pinned: it fills whatever is left.
 */

/** CPUs this process may run on (Linux: Cpus_allowed_list), e.g. [0, 1]; [] when unknown. */
export function allowedCpus(status = readStatus()): number[] {
  const list = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1];
  if (!list) return [];
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [from, to] = part.split('-').map(Number);
    if (from === undefined || !Number.isInteger(from)) return [];
    for (let cpu = from; cpu <= (to ?? from); cpu++) cpus.push(cpu);
  }
  return cpus;
}

function readStatus(): string {
  try {
    return readFileSync('/proc/self/status', 'utf8');
  } catch {
    return '';
  }
}

/** `rootPid` and every process below it, from /proc (Linux); [rootPid] elsewhere. */
export function processTree(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [rootPid];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // exited meanwhile
    }
    const { ppid } = parseStat(stat);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/**
 * Pins a process, every process below it and all their threads to one CPU (util-linux taskset).
 * Processes they start later inherit it. Where that is not possible (not Linux, no taskset) it
 * does nothing: pinning is a speed-up, never a requirement (`seekframe doctor` says which).
 */
export async function pinProcessTree(rootPid: number, cpu: number | readonly number[]): Promise<void> {
  // A list un-pins: a warm browser goes back to every allowed CPU before its next render.
  const list = typeof cpu === 'number' ? String(cpu) : cpu.join(',');
  await Promise.all(
    processTree(rootPid).map((pid) =>
      runProcess('taskset', ['-a', '-p', '-c', list, String(pid)], { timeoutMs: 5_000 }).catch(() => undefined),
    ),
  );
}

/**
 * Gives a process tree back every allowed CPU, when it runs on fewer (a worker of a multi-worker
 * render pinned it). Only then: taskset per process costs ~10 ms each on a busy machine.
 */
export async function unpinProcessTree(rootPid: number): Promise<void> {
  if (isPinned(rootPid)) await pinProcessTree(rootPid, allowedCpus());
}

/** True when the process may run on fewer CPUs than this one (Linux; false elsewhere). */
function isPinned(pid: number): boolean {
  try {
    return allowedCpus(readFileSync(`/proc/${pid}/status`, 'latin1')).length < allowedCpus().length;
  } catch {
    return false;
  }
}

let nextCpu = 0;

/**
 * CPUs for the `count` workers of one pool: worker i always gets the same CPU (a replacement for
 * a crashed browser takes its place), and the starting point moves round-robin over the allowed
 * CPUs across every pool in this process, so concurrent renders (server, batch) spread out
 * instead of all starting at CPU 0. Undefined when there is nothing to choose (one CPU, not Linux).
 */
export function reserveWorkerCpus(count: number, cpus: readonly number[] = allowedCpus()): ((worker: number) => number) | undefined {
  if (cpus.length < 2) return undefined;
  const first = nextCpu;
  nextCpu += count;
  return (worker) => cpus[(first + worker) % cpus.length]!;
}
