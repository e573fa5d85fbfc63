import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seekframeBin } from './interrupt-cli.js';
import { hostileMemoryProject, TEST_MAX_MEMORY_MB, watchTree } from './hostile-memory.js';
import { stillRunning } from './process-tree.js';
import { runCli } from './run-cli.js';

/** The test page stops allocating by itself at 1.5 GB (hostile-memory.ts): a guard that let it get there did not stop it. */
const PAGE_OWN_STOP_MB = 1500;

let dir: string;
beforeAll(async () => {
  dir = await hostileMemoryProject('seekframe-cli-memory-');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  events: Array<Record<string, unknown>>;
  stderr: string;
  /**
   * Seconds from the first reading of the browsers' memory above half the bound to the CLI's exit,
   * for the log only: the pages grow by ~1 GB/s, so the guard often stops them before this
   * test's readings (every 200 ms, later on a busy machine) see the climb at all.
   */
  exitLagSeconds: number | undefined;
  peakMB: number;
  /** Every process the render had, browsers and ffmpeg. */
  processes: number[];
  tmp: string;
}

/** `seekframe render <args> --json` in its own process with its own TMPDIR, its process tree watched. */
async function render(args: string[]): Promise<Run> {
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-memory-tmp-'));
  const child = spawn(process.execPath, [seekframeBin, 'render', ...args, '--json'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: os.homedir(), TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const watch = watchTree(child.pid!, (TEST_MAX_MEMORY_MB / 2) * 2 ** 20);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const exitedAt = Date.now();
  watch.stop();
  const events = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    code,
    events,
    stderr,
    exitLagSeconds: watch.overAt === undefined ? undefined : (exitedAt - watch.overAt) / 1000,
    peakMB: watch.peakBytes / 2 ** 20,
    processes: [...watch.seen],
    tmp,
  };
}

describe('seekframe render --max-memory', () => {
  for (const grow of ['heap', 'array-buffers'] as const) {
    it(`a page growing its ${grow === 'heap' ? 'JavaScript heap' : 'ArrayBuffers'} ends with memory-limit-exceeded before it has grown to its own stop, leaving nothing behind`, {
      timeout: 120_000,
    }, async () => {
      const run = await render([
        '.',
        '--workers',
        '1',
        '--max-memory',
        String(TEST_MAX_MEMORY_MB),
        '--variables',
        JSON.stringify({ grow }),
        '--output',
        `out/${grow}.mp4`,
      ]);
      try {
        expect(run.code, run.stderr).toBe(1);
        const last = run.events.at(-1) as { type: string; error: { code: string; message: string; details: Record<string, unknown> } };
        expect(last.type).toBe('error');
        expect(last.error.code).toBe('memory-limit-exceeded');
        expect(last.error.details).toMatchObject({
          limit: 'maxMemoryMB',
          max: TEST_MAX_MEMORY_MB,
          kind: grow === 'heap' ? 'js-heap' : 'rss',
          flag: '--max-memory',
        });
        expect(last.error.message).toMatch(
          grow === 'heap'
            ? /JavaScript heap reached its limit of 300 MB/
            : /browser used \d+ MB, more than its memory bound of 600 MB \(--max-memory\)/,
        );
        // Stopped promptly, shown by what happened, not by a clock (a reading beside the guard can
        // miss the short climb past the bound on a busy machine): the guard read the browsers over
        // their bound and stopped them well before the page's own stop at 1.5 GB of allocations.
        const usedMB = last.error.details.usedMB as number | undefined;
        if (grow === 'array-buffers') {
          expect(usedMB).toBeGreaterThan(TEST_MAX_MEMORY_MB);
          expect(usedMB).toBeLessThan(PAGE_OWN_STOP_MB);
        }
        // Read beside it (a few readings at most, maybe none before the stop): never more than that either.
        expect(run.peakMB).toBeLessThan(PAGE_OWN_STOP_MB);
        console.log(
          `${grow}: the guard read ${usedMB ?? '-'} MB; peak read beside it ${Math.round(run.peakMB)} MB` +
            (run.exitLagSeconds === undefined
              ? ''
              : `, exited ${run.exitLagSeconds.toFixed(2)} s after the first reading above ${TEST_MAX_MEMORY_MB / 2} MB`),
        );
        // The memory is released: no browser or ffmpeg process outlives the render.
        expect(run.processes.length).toBeGreaterThan(0);
        expect(await stillRunning(run.processes)).toEqual([]);
        expect(await readdir(path.join(dir, 'out')).catch(() => [])).toEqual([]);
        expect(await readdir(run.tmp)).toEqual([]);
      } finally {
        await rm(run.tmp, { recursive: true, force: true });
      }
    });
  }

  it("a batch: the hostile row fails with memory-limit-exceeded, the rows around it render in the batch's warm browsers", {
    timeout: 180_000,
  }, async () => {
    await writeFile(path.join(dir, 'rows.json'), JSON.stringify([{ grow: 'none' }, { grow: 'array-buffers' }, { grow: 'none' }]));
    const run = await render([
      '.',
      '--batch',
      'rows.json',
      '--workers',
      '1',
      '--max-memory',
      String(TEST_MAX_MEMORY_MB),
      '--output',
      'batch/{index}.mp4',
    ]);
    try {
      expect(run.code, run.stderr).toBe(1);
      const outcome = (type: string) => run.events.filter((event) => event.type === type).map((event) => event.row);
      expect(outcome('batch-row-complete')).toEqual([0, 2]);
      const failed = run.events.find((event) => event.type === 'batch-row-failed') as { row: number; error: { code: string } };
      expect(failed).toMatchObject({ row: 1, error: { code: 'memory-limit-exceeded' } });
      expect((await readdir(path.join(dir, 'batch'))).filter((name) => name.endsWith('.mp4')).sort()).toEqual(['0.mp4', '2.mp4']);
      const manifest = JSON.parse(await readFile(path.join(dir, 'batch', 'manifest.json'), 'utf8')) as { rows: Array<{ status: string }> };
      expect(manifest.rows.map((row) => row.status)).toEqual(['completed', 'failed', 'completed']);
      expect(await stillRunning(run.processes)).toEqual([]);
      expect(await readdir(run.tmp)).toEqual([]);
    } finally {
      await rm(run.tmp, { recursive: true, force: true });
      await rm(path.join(dir, 'batch'), { recursive: true, force: true });
    }
  });

  it('refuses a bound too small to open a page, naming the flag', async () => {
    const small = await runCli(['render', '.', '--max-memory', '100'], { cwd: dir, env: { PATH: process.env.PATH, HOME: os.homedir() } });
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/--max-memory must be at least 256 \(MB\)/);
  });
});
