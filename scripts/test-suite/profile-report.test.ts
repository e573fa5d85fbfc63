import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedSleeps } from './fixed-sleeps.js';
import { formatProfile, rowsFromLog, rowsFromProfile } from './profile-report.js';
import type { FileProfile } from './profile-setup.js';

describe('the suite profile (npm run test:profile)', () => {
  it('counts the fixed sleeps of a source, not its deadlines', () => {
    const source = [
      'await new Promise((resolve) => setTimeout(resolve, 1_500));',
      'await sleep(200);',
      'setTimeout(() => controller.abort(), 5000);', // a deadline: ends early when the event comes
      'await new Promise((r) => setTimeout(r, 5));', // a yield, not a sleep
    ].join('\n');
    expect(fixedSleeps(source)).toEqual({ count: 2, ms: 1700 });
  });

  it("reads a default reporter's log: file, project, tests, failures and duration", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-profile-report-'));
    try {
      const log = path.join(dir, 'run.log');
      await writeFile(
        log,
        [
          ' ✓ |unit| core/composition/src/lint-project.test.ts (50 tests) 46ms',
          ' ❯ |heavy| docs/test/site.test.ts (3 tests | 1 failed) 79980ms',
          '   ✓ the docs site > builds every page 137ms',
          ' ✓ |outside| tools/registry/test/starter.test.ts (9 tests) 148.3s',
        ].join('\n'),
      );
      const rows = rowsFromLog(log, dir);
      expect(rows.map((row) => [row.file, row.project, row.tests, row.failed, row.wallSeconds])).toEqual([
        ['core/composition/src/lint-project.test.ts', 'unit', 50, 0, 0.05],
        ['docs/test/site.test.ts', 'heavy', 3, 1, 79.98],
        ['tools/registry/test/starter.test.ts', 'outside', 9, 0, 148.3],
      ]);
      const table = formatProfile(rows, 2);
      expect(table.split('\n')[2]).toMatch(/^\| 1 \| `tools\/registry\/test\/starter\.test\.ts` \| outside \| 148\.3 \|/);
      expect(table).toContain('All 3 files: 62 tests');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("joins the files' profiles: CPU, browsers, processes by kind", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-profile-report-'));
    try {
      const profile: FileProfile = {
        file: 'core/x/test/a.test.ts',
        project: 'heavy',
        wallSeconds: 12.5,
        cpu: { worker: 2, reapedChildren: 5.5, byKind: { chromium: 4.2, ffmpeg: 1.1 } },
        spawned: { ffprobe: 3 },
        seen: { chromium: 14, ffmpeg: 2, ffprobe: 1 },
        browsers: 2,
        otherPrograms: [],
      };
      await writeFile(path.join(dir, 'a.json'), JSON.stringify(profile));
      const [row] = rowsFromProfile(dir, undefined, dir);
      expect(row).toMatchObject({ cpuSeconds: 7.5, browsers: 2, processes: { chromium: 14, ffmpeg: 2, ffprobe: 3 } });
      expect(row!.cpuByKind).toEqual([
        ['chromium', 4.2],
        ['worker', 2],
        ['ffmpeg', 1.1],
      ]);
      expect(formatProfile([row!], 30)).toContain(
        '| 1 | `core/x/test/a.test.ts` | heavy | 12.5 | 7.5 |  | 2 | ffmpeg 2, ffprobe 3 | chromium 4, worker 2, ffmpeg 1 |  |',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
