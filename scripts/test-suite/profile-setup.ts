/**
 * A vitest setup file of every project, inert unless SEEKFRAME_TEST_PROFILE names a folder
 * (`npm run test:profile` sets it). Then, for the test file it runs with, it records what the
 * file spent its time on and writes it to that folder as one JSON file:
 * - the CPU seconds of the file's worker process and of the processes it waited for (each file
 *   runs in a fresh fork: vitest's `isolate`), and the CPU of each kind of process below it;
 * - the processes it started itself (spawn hook) and the ones seen below it (browsers launched by
 *   a CLI it started, ffmpeg under a render), counted by kind: browsers, ffmpeg, ffprobe, npm,
 *   podman, redis...
 * profile-report.ts joins these with vitest's JSON report into the table of the slowest files.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { ProcessKind } from './process-kind.js';
import { processKind } from './process-kind.js';
import { ownAndReapedCpuSeconds, type ProcessTreeWatch, watchProcessTree } from './process-tree-watch.js';
import { onSpawn } from './spawn-hook.js';

/** What profile-setup.ts writes for one test file. */
export interface FileProfile {
  file: string;
  project: string;
  /** Wall seconds from the start of the file's worker (a fresh fork per file) to its last hook: import, hooks and tests. */
  wallSeconds: number;
  /** CPU seconds of the worker itself, of its reaped children, and of every process seen below it by kind. */
  cpu: { worker: number; reapedChildren: number; byKind: Partial<Record<ProcessKind, number>> };
  /** Processes the file started itself, by kind. */
  spawned: Partial<Record<ProcessKind, number>>;
  /** Processes seen below the worker (its own and their descendants), by kind; `browsers`: browser launches. */
  seen: Partial<Record<ProcessKind, number>>;
  browsers: number;
  /** Programs of kind `other` the file started itself (for adding kinds). */
  otherPrograms: string[];
}

const folder = process.env.SEEKFRAME_TEST_PROFILE;
if (folder) {
  const spawned: Partial<Record<ProcessKind, number>> = {};
  const otherPrograms = new Set<string>();
  let watch: ProcessTreeWatch | undefined;
  beforeAll(() => {
    onSpawn((argv) => {
      const kind = processKind(argv);
      spawned[kind] = (spawned[kind] ?? 0) + 1;
      if (kind === 'other') otherPrograms.add(path.basename(argv[0] ?? ''));
    });
    if (process.platform === 'linux') watch = watchProcessTree(process.pid);
  });
  afterAll((suite) => {
    const file = 'filepath' in suite ? String(suite.filepath) : suite.name;
    const project = 'projectName' in suite ? String(suite.projectName ?? '') : '';
    const seen: Partial<Record<ProcessKind, number>> = {};
    const byKind: Partial<Record<ProcessKind, number>> = {};
    let browsers = 0;
    for (const entry of watch?.seen().values() ?? []) {
      seen[entry.kind] = (seen[entry.kind] ?? 0) + 1;
      byKind[entry.kind] = round((byKind[entry.kind] ?? 0) + entry.cpuSeconds);
      if (entry.browserMain) browsers++;
    }
    watch?.stop();
    const cpu = process.platform === 'linux' ? ownAndReapedCpuSeconds() : { own: process.cpuUsage().user / 1e6, children: 0 };
    const profile: FileProfile = {
      file: path.relative(process.cwd(), file),
      project,
      wallSeconds: round(process.uptime()),
      cpu: { worker: round(cpu.own), reapedChildren: round(cpu.children), byKind },
      spawned,
      seen,
      browsers,
      otherPrograms: [...otherPrograms],
    };
    mkdirSync(folder, { recursive: true });
    const name = createHash('sha1').update(profile.file).digest('hex').slice(0, 16);
    writeFileSync(path.join(folder, `${name}.json`), `${JSON.stringify(profile)}\n`);
  }, 30_000);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
