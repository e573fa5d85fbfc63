import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interruptCliWhen, listeningAfter, slowProject, type InterruptedRun, type InterruptWhen } from './interrupt-cli.js';
import { descendants, stillRunning } from './process-tree.js';

/**
 * SIGTERM (kill, timeout, systemd, a container stop) at every stage of a render: the render is
 * cancelled with its message and exit 1, within seconds, and leaves nothing behind: no output,
 * no `.partial` file, no temp folder (each run has its own TMPDIR), no process.
 */
let dir: string;
let hang: Server;
let hangPort = 0;
let hangRequested: () => void = () => undefined;

beforeAll(async () => {
  // 160x90, 4 s at 15 fps: with one worker, long enough to stop it in the middle of capture.
  dir = await slowProject('seekframe-cli-sigterm-');
  // A server that takes requests and never answers: an image the page waits for forever.
  hang = createServer(() => hangRequested());
  await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
  hangPort = (hang.address() as AddressInfo).port;
  await mkdir(path.join(dir, 'hanging'));
  await writeFile(
    path.join(dir, 'hanging', 'index.html'),
    `<!doctype html><html data-composition-id="h" data-width="160" data-height="90" data-duration="2" data-fps="10"><head></head>
<body><img src="http://127.0.0.1:${hangPort}/never.png" alt=""></body></html>`,
  );
});
afterAll(async () => {
  hang.closeAllConnections();
  await new Promise((resolve) => hang.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/**
 * The exit must not wait on a timer: the shortest a stopped render could be waiting on is the 15 s
 * remote-asset limit (the hanging image below). ~1-2 s on an idle machine; the bound is that timer,
 * less a margin, so a loaded machine's slow clean-up passes and a wait on the timer does not.
 */
const NOT_WAITING_ON_THE_REMOTE_LIMIT_S = 12;

/** Exit latencies seen, reported at the end: the figures are what matters. */
const latencies: string[] = [];
afterAll(() => console.log(`SIGTERM to exit:\n  ${latencies.join('\n  ')}`));

async function stopAt(name: string, args: string[], when: InterruptWhen, output: string): Promise<InterruptedRun> {
  const run = await interruptCliWhen(dir, ['render', ...args, '--workers', '1', '--output', output, '--json'], when, 'SIGTERM');
  latencies.push(`${name}: ${run.exitSeconds.toFixed(2)} s`);
  return run;
}

async function expectCancelledCleanly(run: InterruptedRun, outDir: string): Promise<void> {
  try {
    expect(run.interrupted, `the signal was never sent; stdout: ${run.stdout} stderr: ${run.stderr}`).toBe(true);
    expect(run.signal, 'the CLI died by the signal instead of handling it').toBeNull();
    expect(run.code, run.stderr).toBe(1);
    const last = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { type: string; error: { code: string; message: string } };
    expect(last).toMatchObject({
      type: 'error',
      error: { code: 'render-cancelled', message: 'The render was cancelled (stopped (SIGTERM)); no output was written.' },
    });
    expect(run.exitSeconds).toBeLessThan(NOT_WAITING_ON_THE_REMOTE_LIMIT_S);
    expect(await readdir(outDir).catch(() => [])).toEqual([]);
    expect(await readdir(run.tmp)).toEqual([]);
    expect(await stillRunning(run.processes)).toEqual([]);
  } finally {
    await rm(run.tmp, { recursive: true, force: true });
  }
}

describe('seekframe render: SIGTERM', () => {
  it('~300 ms after start, while the CLI is still loading: handled like any other stage', { timeout: 60_000 }, async () => {
    const run = await stopAt('while loading (>= 300 ms after start)', ['.'], listeningAfter(300), 'out-loading/video.mp4');
    await expectCancelledCleanly(run, path.join(dir, 'out-loading'));
  });

  for (const stage of ['lint', 'load', 'variables', 'serve', 'media', 'capture'] as const) {
    it(`at the ${stage} stage`, { timeout: 60_000 }, async () => {
      const run = await stopAt(`at the ${stage} stage`, ['.'], new RegExp(`"stage":"${stage}"`), `out-${stage}/video.mp4`);
      await expectCancelledCleanly(run, path.join(dir, `out-${stage}`));
    });
  }

  it('while the page still loads an image that never answers: exits within seconds, not after the remote time limit', {
    timeout: 60_000,
  }, async () => {
    const requested = new Promise<void>((resolve) => (hangRequested = resolve));
    const run = await stopAt('page loading a never-answered image', ['hanging'], () => requested, 'out-hanging/video.mp4');
    await expectCancelledCleanly(run, path.join(dir, 'out-hanging'));
  });

  it('a second SIGTERM during the clean-up exits at once, still leaving no partial output and no temp folder', {
    timeout: 60_000,
  }, async () => {
    const outDir = path.join(dir, 'out-twice');
    const run = await interruptCliWhen(
      dir,
      ['render', '.', '--workers', '1', '--output', 'out-twice/video.mp4'],
      /capture \d+\/60 frames/,
      {
        signal: 'SIGTERM',
        // A frozen browser answers nothing: the clean-up has to kill it. The clean-up of a cancelled
        // render takes ~0.1 s, so the second signal goes as soon as the first was delivered.
        beforeSignal: (child) => freezeBrowsers(child.pid!),
        againAfterMs: 0,
      },
    );
    try {
      expect(run.interrupted, `never saw progress; stderr: ${run.stderr}`).toBe(true);
      expect(run.signal).toBeNull();
      expect(run.code, `stderr: ${run.stderr}`).toBe(143);
      expect(run.stderr).toMatch(
        /The render was cancelled \(stopped \(SIGTERM\), then SIGTERM again: stopped at once\); no output was written\./,
      );
      expect(run.exitSeconds).toBeLessThan(NOT_WAITING_ON_THE_REMOTE_LIMIT_S);
      latencies.push(`second SIGTERM during the clean-up: ${run.exitSeconds.toFixed(2)} s after the first`);
      expect(await readdir(outDir).catch(() => [])).toEqual([]);
      expect(await readdir(run.tmp)).toEqual([]);
      expect(await stillRunning(run.processes)).toEqual([]);
    } finally {
      await rm(run.tmp, { recursive: true, force: true });
    }
  });

  it('during capture, and leftovers of a hard-killed render are swept', { timeout: 90_000 }, async () => {
    const out = path.join(dir, 'out');
    await mkdir(out, { recursive: true });
    // What a render killed with SIGKILL leaves: its temp output, named with its (now dead) pid.
    const stale = `.video.mp4.${await deadPid()}-0123abcd.partial.mp4`;
    await writeFile(path.join(out, stale), 'half a video');
    // Not ours by name: never touched.
    await writeFile(path.join(out, 'notes.partial.txt'), 'mine');

    const run = await interruptCliWhen(
      dir,
      ['render', '.', '--workers', '1', '--output', 'out/video.mp4'],
      /capture \d+\/60 frames/,
      'SIGTERM',
    );
    try {
      expect(run.interrupted, `never saw progress; stdout: ${run.stdout} stderr: ${run.stderr}`).toBe(true);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/cancelled \(stopped \(SIGTERM\)\); no output was written/);
      expect(await readdir(out)).toEqual(['notes.partial.txt']);
      expect(await readdir(run.tmp)).toEqual([]);
    } finally {
      await rm(run.tmp, { recursive: true, force: true });
    }
  });
});

/** SIGSTOPs every browser process below `pid` (the second signal's SIGKILL still ends them). */
function freezeBrowsers(pid: number): void {
  for (const member of descendants(pid)) {
    if (/chrom|headless/i.test(readFileSync(`/proc/${member}/comm`, 'utf8'))) process.kill(member, 'SIGSTOP');
  }
}

/** The pid of a process that has exited: a render killed with SIGKILL leaves exactly that behind. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}
