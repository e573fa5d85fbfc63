/**
 * The suite's profile: the slowest test files and what each spent its time on.
 *
 *   npx tsx scripts/test-suite/profile-report.ts --profile DIR [--report vitest.json] [--top 30]
 *   npx tsx scripts/test-suite/profile-report.ts --log vitest-output.log [--top 30]
 * prints a Markdown table. `--write-seconds FILE` also writes each file's wall seconds as JSON:
 * scripts/test-suite/file-seconds.json is that, for the order files start in (sequencer.ts).
 *
 * --profile: the folder profile-setup.ts filled during `npm run test:profile` (wall and CPU per
 * file, processes started and seen by kind); --report: vitest's JSON report of the same run (test
 * counts and failures). --log: the default reporter's output of any run (file durations only:
 * vitest's own figure, the file's hooks and tests without its import), for runs made without the
 * profile. Fixed sleeps are counted in each file's source (fixed-sleeps.ts).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fixedSleeps } from './fixed-sleeps.js';
import type { ProcessKind } from './process-kind.js';
import type { FileProfile } from './profile-setup.js';

export interface ProfileRow {
  file: string;
  project: string;
  wallSeconds: number;
  cpuSeconds: number | undefined;
  tests: number | undefined;
  failed: number;
  browsers: number | undefined;
  /** Processes by kind: the larger of started-by-the-file and seen-below-it. */
  processes: Partial<Record<ProcessKind, number>>;
  /** CPU seconds by kind of process below the worker (the worker itself under `worker`). */
  cpuByKind: Array<[string, number]>;
  sleeps: { count: number; ms: number };
}

interface VitestJsonReport {
  testResults: Array<{ name: string; status: string; assertionResults: Array<{ status: string }> }>;
}

/** Rows from a profile folder (and the run's JSON report, when given). */
export function rowsFromProfile(dir: string, reportFile: string | undefined, root: string): ProfileRow[] {
  const report = reportFile && existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as VitestJsonReport) : undefined;
  const results = new Map(report?.testResults.map((result) => [path.relative(root, result.name), result]));
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as FileProfile)
    .map((profile) => {
      const result = results.get(profile.file);
      const processes: Partial<Record<ProcessKind, number>> = {};
      for (const kind of new Set([...Object.keys(profile.spawned), ...Object.keys(profile.seen)]) as Set<ProcessKind>)
        processes[kind] = Math.max(profile.spawned[kind] ?? 0, profile.seen[kind] ?? 0);
      const cpuByKind = Object.entries({ worker: profile.cpu.worker, ...profile.cpu.byKind })
        .filter(([, seconds]) => seconds >= 0.5)
        .sort((a, b) => b[1] - a[1]);
      return {
        file: profile.file,
        project: profile.project,
        wallSeconds: profile.wallSeconds,
        cpuSeconds: round(profile.cpu.worker + profile.cpu.reapedChildren),
        tests: result?.assertionResults.length,
        failed: result?.assertionResults.filter((test) => test.status === 'failed').length ?? 0,
        browsers: profile.browsers,
        processes,
        cpuByKind,
        sleeps: sleepsIn(path.join(root, profile.file)),
      };
    });
}

/** Rows from a default-reporter log: ` ✓ |unit| core/x.test.ts (12 tests | 1 skipped) 3412ms`. */
export function rowsFromLog(logFile: string, root: string): ProfileRow[] {
  const line = /^ {1,3}[✓❯×↓] (?:\|(\S+)\| )?(\S+\.test\.ts) \((\d+) tests?(?: \| (\d+) failed)?[^)]*\)(?: \d+ \w+)? ([\d.]+)(ms|s)$/;
  const rows: ProfileRow[] = [];
  for (const text of readFileSync(logFile, 'utf8').split('\n')) {
    const match = line.exec(text.replace(/\x1b\[[0-9;]*m/g, ''));
    if (!match) continue;
    const [, project = '', file = '', tests = '0', failed = '0', value = '0', unit] = match;
    rows.push({
      file,
      project,
      wallSeconds: round(Number(value) / (unit === 'ms' ? 1000 : 1)),
      cpuSeconds: undefined,
      tests: Number(tests),
      failed: Number(failed),
      browsers: undefined,
      processes: {},
      cpuByKind: [],
      sleeps: sleepsIn(path.join(root, file)),
    });
  }
  return rows;
}

function sleepsIn(file: string): { count: number; ms: number } {
  return existsSync(file) ? fixedSleeps(readFileSync(file, 'utf8')) : { count: 0, ms: 0 };
}

const KINDS: Array<[ProcessKind, string]> = [
  ['ffmpeg', 'ffmpeg'],
  ['ffprobe', 'ffprobe'],
  ['seekframe-cli', 'CLI'],
  ['npm', 'npm'],
  ['container', 'podman'],
  ['redis', 'redis'],
  ['python', 'python'],
  ['workerd', 'workerd'],
  ['node', 'node'],
];

/** The table of the `top` slowest files, and the totals of every file, as Markdown or plain text. */
export function formatProfile(rows: ProfileRow[], top: number): string {
  const sorted = [...rows].sort((a, b) => b.wallSeconds - a.wallSeconds);
  const header = ['#', 'file', 'project', 'wall s', 'CPU s', 'tests', 'browsers', 'other processes', 'CPU by process (s)', 'fixed sleeps'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  sorted.slice(0, top).forEach((row, index) => {
    const processes = KINDS.filter(([kind]) => (row.processes[kind] ?? 0) > 0)
      .map(([kind, label]) => `${label} ${row.processes[kind]}`)
      .join(', ');
    const cpu = row.cpuByKind
      .slice(0, 3)
      .map(([kind, seconds]) => `${kind} ${Math.round(seconds)}`)
      .join(', ');
    lines.push(
      `| ${[
        index + 1,
        `\`${row.file}\``,
        row.project,
        row.wallSeconds.toFixed(1),
        row.cpuSeconds?.toFixed(1) ?? '',
        `${row.tests ?? ''}${row.failed ? ` (${row.failed} failed)` : ''}`,
        row.browsers ?? '',
        processes,
        cpu,
        row.sleeps.count ? `${row.sleeps.count} (${(row.sleeps.ms / 1000).toFixed(1)} s)` : '',
      ].join(' | ')} |`,
    );
  });
  const sum = (pick: (row: ProfileRow) => number | undefined): number => rows.reduce((total, row) => total + (pick(row) ?? 0), 0);
  const byProject = new Map<string, ProfileRow[]>();
  for (const row of rows) byProject.set(row.project, [...(byProject.get(row.project) ?? []), row]);
  const totals = [...byProject]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([project, members]) => {
      const wall = members.reduce((total, row) => total + row.wallSeconds, 0);
      const cpu = members.some((row) => row.cpuSeconds !== undefined)
        ? `, CPU ${Math.round(members.reduce((total, row) => total + (row.cpuSeconds ?? 0), 0))} s`
        : '';
      return `${project || '(no project)'}: ${members.length} files, wall ${Math.round(wall)} s summed${cpu}`;
    });
  lines.push(
    '',
    `All ${rows.length} files: ${sum((row) => row.tests)} tests, wall ${Math.round(sum((row) => row.wallSeconds))} s summed over files` +
      (rows.some((row) => row.cpuSeconds !== undefined) ? `, CPU ${Math.round(sum((row) => row.cpuSeconds))} s` : '') +
      (rows.some((row) => row.browsers !== undefined) ? `, ${sum((row) => row.browsers)} browser launches` : '') +
      `. ${totals.join('; ')}.`,
  );
  return lines.join('\n');
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string' },
      report: { type: 'string' },
      log: { type: 'string' },
      top: { type: 'string', default: '30' },
      'write-seconds': { type: 'string' },
    },
  });
  const root = process.cwd();
  const rows = values.profile
    ? rowsFromProfile(values.profile, values.report, root)
    : values.log
      ? rowsFromLog(values.log, root)
      : undefined;
  if (!rows) {
    console.error('profile-report: give --profile DIR (from npm run test:profile) or --log FILE (a vitest run output)');
    process.exit(2);
  }
  console.log(formatProfile(rows, Number(values.top)));
  if (values['write-seconds']) {
    const seconds = Object.fromEntries(
      rows.map((row) => [row.file, Math.round(row.wallSeconds * 10) / 10] as const).sort(([a], [b]) => a.localeCompare(b)),
    );
    writeFileSync(values['write-seconds'], `${JSON.stringify(seconds, null, 2)}\n`);
  }
}
