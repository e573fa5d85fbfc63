export type CheckStatus = 'ok' | 'warn' | 'fail';

/** One line of `seekframe doctor`. `fail` means a render cannot run; `warn` means it runs worse. */
export interface CheckResult {
  id: string;
  title: string;
  status: CheckStatus;
  /** What was found, e.g. "chromium-headless-shell 142.0 at /usr/lib/chromium/...". */
  summary: string;
  /** What to do about a warn/fail. */
  fix?: string;
  details?: Record<string, unknown>;
}

export interface DoctorReport {
  status: CheckStatus;
  checks: CheckResult[];
  counts: Record<CheckStatus, number>;
}

const RANK: Record<CheckStatus, number> = { ok: 0, warn: 1, fail: 2 };

/** The worst status wins: one failure fails the whole report. */
export function aggregate(checks: CheckResult[]): DoctorReport {
  const counts: Record<CheckStatus, number> = { ok: 0, warn: 0, fail: 0 };
  let status: CheckStatus = 'ok';
  for (const check of checks) {
    counts[check.status] += 1;
    if (RANK[check.status] > RANK[status]) status = check.status;
  }
  return { status, checks, counts };
}

/** A check that throws must not take the others down; it becomes a failure naming the error. */
export async function safely(id: string, title: string, run: () => Promise<CheckResult[]>): Promise<CheckResult[]> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [{ id, title, status: 'fail', summary: 'check failed', fix: message }];
  }
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
