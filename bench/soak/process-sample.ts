/**
 * What the soak watches of one server process, read from /proc (Linux): its resident memory, its
 * open file descriptors, and the processes below it by kind (browsers, ffmpeg, Seekframe CLI
 * children). A reading, nothing asserted.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ProcessSample {
  rssMB: number;
  fds: number;
  /** Browser processes below the server (main processes and their renderers, zygotes, utilities). */
  browserProcesses: number;
  /** Browser main processes only: the browsers themselves (a warm pool's, a render's). */
  browsers: number;
  ffmpeg: number;
  /** Node processes below the server (the render API's CLI children). */
  nodeChildren: number;
}

interface ProcInfo {
  pid: number;
  ppid: number;
  comm: string;
  exe: string;
}

function readProcs(): ProcInfo[] {
  const procs: ProcInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      let exe = '';
      try {
        exe = readlinkSync(`/proc/${name}/exe`);
      } catch {
        // a zombie or another user's process
      }
      procs.push({ pid: Number(name), ppid, comm, exe });
    } catch {
      // gone between readdir and read
    }
  }
  return procs;
}

const isBrowser = (p: ProcInfo): boolean => /chrom|headless/i.test(p.exe) || /chrom|headless_shell/i.test(p.comm);

export function sampleProcess(pid: number): ProcessSample {
  const procs = readProcs();
  const children = new Map<number, ProcInfo[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const below: ProcInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      below.push(child);
      queue.push(child.pid);
    }
  }
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const browsers = below.filter(isBrowser);
  return {
    rssMB: Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1] ?? 0) / 1024),
    fds: readdirSync(`/proc/${pid}/fd`).length,
    browserProcesses: browsers.length,
    browsers: browsers.filter((p) => !isBrowser(byPid.get(p.ppid) ?? { pid: 0, ppid: 0, comm: '', exe: '' })).length,
    ffmpeg: below.filter((p) => p.comm === 'ffmpeg').length,
    nodeChildren: below.filter((p) => /(^|\/)node$/.test(p.exe)).length,
  };
}

/** Entries directly in `dir` (the servers' private TMPDIR: profiles, render temps, inline projects). */
export function countEntries(dir: string): number {
  try {
    return readdirSync(dir).length;
  } catch {
    return 0;
  }
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** CPU seconds (user + system) a process and its reaped children used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]!.split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return ticks / 100;
}
