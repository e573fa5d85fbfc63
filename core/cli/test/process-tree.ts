import { readFileSync, readdirSync } from 'node:fs';

/** Parent -> children of every process now (from /proc). */
export function processChildren(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(
        readFileSync(`/proc/${name}/stat`, 'utf8')
          .replace(/^.*\) /s, '')
          .split(' ')[1],
      );
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // exited meanwhile
    }
  }
  return children;
}

/** Every process below `pid` now. */
export function descendants(pid: number, children = processChildren()): number[] {
  const all: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = children.get(queue.shift()!) ?? [];
    all.push(...next);
    queue.push(...next);
  }
  return all;
}

/** True while the process runs (a zombie waiting for its parent counts as gone: it holds no memory). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The processes of `pids` still running after up to `ms`: a killed process holding a lot of memory
 * takes a moment to give it back and go, more so on a busy machine (the default bound is for a
 * machine that barely schedules the test; it returns as soon as they are gone).
 */
export async function stillRunning(pids: readonly number[], ms = 30_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(alive);
}
