/** Linux: the fields of /proc/<pid>/stat that the sampler and CPU pinning read. */

export const CLOCK_TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux x86_64
const PAGE_SIZE_BYTES = 4096;

export interface ProcStat {
  ppid: number;
  comm: string;
  /** This process's own user + system CPU seconds. */
  selfCpu: number;
  /** CPU seconds of the children it has reaped (cutime + cstime), their descendants included. */
  reapedCpu: number;
  rssBytes: number;
}

export function parseStat(raw: string): ProcStat {
  // comm is in parentheses and may contain spaces: split around the last ')'.
  const close = raw.lastIndexOf(')');
  const comm = raw.slice(raw.indexOf('(') + 1, close);
  const fields = raw.slice(close + 2).split(' ');
  // fields[0] is state (field 3 in proc(5)): utime=14, stime=15, cutime=16, cstime=17, rss=24.
  const ticks = (i: number): number => Number(fields[i]) / CLOCK_TICKS_PER_SECOND;
  return {
    ppid: Number(fields[1]),
    comm,
    selfCpu: ticks(11) + ticks(12),
    reapedCpu: ticks(13) + ticks(14),
    rssBytes: Number(fields[21]) * PAGE_SIZE_BYTES,
  };
}
