import { readFileSync } from 'node:fs';
import { removeOwnTempsSync } from './atomic-output.js';
import { processTree } from './pin-to-cpu.js';

/** How long stopNow waits for the killed processes to be gone before it removes their files. */
const GONE_WITHIN_MS = 1_000;

/**
 * The last resort of a process that must exit now (told twice to stop while a render cleans up):
 * nothing may wait, so everything here is synchronous. Every process this one started (browsers
 * with all their children, ffmpeg) is killed, then its temp outputs and temp folders are removed,
 * so even a forced exit leaves no `.partial` file and no temp folder. Linux reads /proc to find
 * the processes; elsewhere only the files are removed.
 */
export function stopNow(): { killed: number; removed: string[] } {
  const children = processTree(process.pid).filter((pid) => pid !== process.pid);
  for (const pid of children) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // A killed process may still be inside a write for a moment; its files go once it is dead (or a zombie).
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + GONE_WITHIN_MS;
  while (children.some(running) && Date.now() < deadline) Atomics.wait(sleeper, 0, 0, 10);
  return { killed: children.length, removed: removeOwnTempsSync() };
}

/** True while the process runs; a zombie (dead, not yet reaped) writes nothing more. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
