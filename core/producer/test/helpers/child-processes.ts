import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Direct children of this test process whose command name matches `pattern` — the browsers and
 * ffmpeg processes the render under test started. Used to kill exactly those, by pid.
 */
export async function childProcesses(pattern: RegExp): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=,ppid=,comm=', '--ppid', String(process.pid)]);
  return parse(stdout, pattern);
}

/** The same, blocking: lets a progress listener kill a process before the render moves on. */
export function childProcessesSync(pattern: RegExp): number[] {
  return parse(execFileSync('ps', ['-o', 'pid=,ppid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' }), pattern);
}

function parse(stdout: string, pattern: RegExp): number[] {
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length >= 3 && pattern.test(parts.slice(2).join(' ')))
    .map((parts) => Number(parts[0]));
}
