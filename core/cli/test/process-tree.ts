import { readFileSync, readdirSync } from 'node:fs';

/** Parent -> children of every process now (from /proc). */
export function processChildren(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
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
