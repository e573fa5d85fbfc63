import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { descendants } from './process-tree.js';

/** The published entry point, on the built dist/ (scripts/test.sh builds before the suite). */
export const seekframeBin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/seekframe.js');

/**
 * A temp project whose index.html lasts 4 s at 15 fps (160x90): with one worker, long enough to
 * press Ctrl-C in the middle of capture. `rootAttributes` is added to the <html> element (e.g. a
 * variables declaration); `files` are written beside it. Returns the project folder.
 */
export async function slowProject(prefix: string, rootAttributes = '', files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html data-composition-id="s" data-width="160" data-height="90" data-duration="4" data-fps="15"${rootAttributes}><head></head>
<body><div id="n"></div><script>window.__seekframe.onSeek((t) => { document.getElementById('n').textContent = String(t); });</script></body></html>`,
  );
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

export interface InterruptedRun {
  code: number | null;
  /** The signal the CLI died by, if it did (it should not: it catches them). */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Whether `when` happened, so the signal was sent. */
  interrupted: boolean;
  /** Seconds from the (first) signal to the CLI's exit. */
  exitSeconds: number;
  /** The CLI's own TMPDIR (emptied only by the CLI): what its temp folders would leave behind. */
  tmp: string;
  /** Every process below the CLI seen while it ran (browsers, ffmpeg). */
  processes: number[];
}

/** When to send the signal: the first time stdout so far matches, or when the promise resolves (given the CLI process). */
export type InterruptWhen = RegExp | ((child: ChildProcess) => Promise<void>);

export interface InterruptOptions {
  signal?: NodeJS.Signals;
  /** Send the same signal once more this many ms after the first was delivered (a second Ctrl-C while the render cleans up; 0: at once). */
  againAfterMs?: number;
  /** Runs right before the signal is sent (e.g. to freeze a browser so the clean-up must wait for it). */
  beforeSignal?: (child: ChildProcess) => void | Promise<void>;
}

/**
 * Runs the real CLI (`seekframe <args>` in `cwd`) in its own process with its own TMPDIR, so a
 * signal goes to it alone and its leftovers are visible, and sends it `signal` (SIGINT) when `when`
 * happens. The caller removes `tmp`.
 */
export async function interruptCliWhen(
  cwd: string,
  args: string[],
  when: InterruptWhen,
  options: InterruptOptions | NodeJS.Signals = {},
): Promise<InterruptedRun> {
  const opts = typeof options === 'string' ? { signal: options } : options;
  const signal = opts.signal ?? 'SIGINT';
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-interrupt-tmp-'));
  const child = spawn(process.execPath, [seekframeBin, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: os.homedir(), TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  let sentAt = 0;
  const processes = new Set<number>();
  const watch = setInterval(() => {
    for (const pid of descendants(child.pid!)) processes.add(pid);
  }, 250);
  const send = async (): Promise<void> => {
    if (interrupted) return;
    interrupted = true;
    for (const pid of descendants(child.pid!)) processes.add(pid);
    await opts.beforeSignal?.(child);
    sentAt = Date.now();
    child.kill(signal);
    if (opts.againAfterMs !== undefined) {
      // Two signals of one kind pending together are one signal: on a loaded machine the CLI may
      // not run for a while, so the second is sent only once the first was delivered.
      waitDelivered(child.pid!, signal);
      if (opts.againAfterMs === 0) child.kill(signal);
      else setTimeout(() => child.kill(signal), opts.againAfterMs);
    }
  };
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (when instanceof RegExp && when.test(stdout)) void send();
  });
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (code, sig) => resolve([code, sig])));
  if (!(when instanceof RegExp)) void Promise.race([when(child), closed]).then(send);
  const [code, died] = await closed;
  clearInterval(watch);
  return { code, signal: died, stdout, stderr, interrupted, exitSeconds: (Date.now() - sentAt) / 1000, tmp, processes: [...processes] };
}

/**
 * Resolves once the CLI catches SIGINT/SIGTERM itself (bin/seekframe.js names the process
 * `seekframe …` right after it starts listening) and at least `ms` after it was started.
 */
export function listeningAfter(ms: number): (child: ChildProcess) => Promise<void> {
  return async (child) => {
    const started = Date.now();
    while (!readComm(child.pid!).startsWith('seekframe') || Date.now() - started < ms) {
      if (child.exitCode !== null) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
}

/**
 * Returns once `signal` is no longer pending for `pid` (its handler ran), or the process is gone.
 * Blocks (a few ms at most): a timer between two reads would let a short clean-up end unseen.
 */
function waitDelivered(pid: number, signal: NodeJS.Signals): void {
  const bit = 1n << BigInt(os.constants.signals[signal] - 1);
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    let status: string;
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
    } catch {
      return;
    }
    const pending = [...status.matchAll(/^(?:SigPnd|ShdPnd):\s*([0-9a-f]+)$/gm)].some((match) => (BigInt(`0x${match[1]}`) & bit) !== 0n);
    if (!pending) return;
  }
}

function readComm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}
