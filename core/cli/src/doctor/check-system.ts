import type { CheckResult } from './check-result.js';
import { formatBytes } from './check-result.js';

const MB = 1024 * 1024;
export const MIN_NODE = [20, 19] as const;
export const SHM_WARN_BYTES = 512 * MB;
/** One browser worker plus ffmpeg need about this much; below it a render may be killed. */
export const MEMORY_WARN_BYTES = 1024 * MB;
export const DISK_WARN_BYTES = 1024 * MB;
export const DISK_FAIL_BYTES = 200 * MB;

export function checkNode(version: string): CheckResult {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return {
    id: 'node',
    title: 'Node.js',
    status: ok ? 'ok' : 'fail',
    summary: `${version} (needs >= ${MIN_NODE.join('.')})`,
    ...(ok ? {} : { fix: `Install Node.js ${MIN_NODE.join('.')} or newer (20 LTS or 22), e.g. with nvm or your package manager.` }),
  };
}

/** `sizeBytes` null: no /dev/shm on this system (macOS, Windows), so nothing to check. */
export function checkShm(sizeBytes: number | null): CheckResult {
  const base = { id: 'shm', title: '/dev/shm' };
  if (sizeBytes === null) return { ...base, status: 'ok', summary: 'not present on this system (not needed outside Linux)' };
  if (sizeBytes >= SHM_WARN_BYTES) return { ...base, status: 'ok', summary: `${formatBytes(sizeBytes)}` };
  return {
    ...base,
    status: 'warn',
    summary: `${formatBytes(sizeBytes)} (under ${formatBytes(SHM_WARN_BYTES)})`,
    fix:
      'Chromium shares rendered frames through /dev/shm; Seekframe launches it with --disable-dev-shm-usage, ' +
      'so a small one is survivable but slower (frames go through /tmp). In Docker pass --shm-size=1g; ' +
      'on a host: mount -o remount,size=1G /dev/shm.',
  };
}

export function checkMemory(freeBytes: number, totalBytes: number): CheckResult {
  const summary = `${formatBytes(freeBytes)} free of ${formatBytes(totalBytes)}`;
  if (freeBytes >= MEMORY_WARN_BYTES) return { id: 'memory', title: 'Memory', status: 'ok', summary };
  return {
    id: 'memory',
    title: 'Memory',
    status: 'warn',
    summary,
    fix: `Each render worker is a browser (~256-512 MB) next to ffmpeg; with under ${formatBytes(MEMORY_WARN_BYTES)} free, close other programs or render with --workers 1.`,
  };
}

export function checkDisk(freeBytes: number, dir: string): CheckResult {
  const base = { id: 'disk', title: 'Disk', summary: `${formatBytes(freeBytes)} free in ${dir}`, details: { dir, freeBytes } };
  if (freeBytes >= DISK_WARN_BYTES) return { ...base, status: 'ok' };
  const fix = `Renders and their temporary frames are written under ${dir}; free some space or render elsewhere with --output <path>.`;
  return { ...base, status: freeBytes < DISK_FAIL_BYTES ? 'fail' : 'warn', fix };
}

export function checkWorkers(cores: number, autoWorkers: number, example: { seconds: number; fps: number }): CheckResult {
  return {
    id: 'workers',
    title: 'Workers',
    status: 'ok',
    summary:
      `${cores} CPU core${cores === 1 ? '' : 's'}; --workers auto picks ${autoWorkers} for a ${example.seconds} s render at ${example.fps} fps ` +
      '(cores - 2 but 2 on 2-4 cores, or the saved seekframe benchmark recommendation; bounded by free memory; fewer for short renders)',
    details: { cores, autoWorkers },
  };
}

/**
 * Renders with 2+ workers pin each browser to its own CPU with taskset (Linux). Without taskset
 * they still work, a few percent slower, so a missing one is a warning with the fix.
 * `cpus` empty: the allowed CPUs are unknown (not Linux).
 */
export function checkCpuPinning(cpus: readonly number[], taskset: string | null): CheckResult {
  const base = { id: 'cpu-pinning', title: 'CPU pinning' };
  if (cpus.length === 0)
    return { ...base, status: 'ok', summary: 'not available on this system (Linux only); renders are the same, a little slower' };
  if (cpus.length === 1) return { ...base, status: 'ok', summary: 'one CPU: nothing to pin' };
  if (!taskset) {
    return {
      ...base,
      status: 'warn',
      summary: 'taskset not found: render workers are not pinned to CPUs',
      fix: 'Install util-linux (`apt-get install util-linux`), which has taskset: renders with 2+ workers then pin each browser to its own CPU, a few percent faster.',
    };
  }
  return {
    ...base,
    status: 'ok',
    summary: `${taskset}: with 2+ workers each browser gets its own CPU of ${cpus.length} (${cpus.join(',')})`,
  };
}
