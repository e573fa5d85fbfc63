import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  stdout: string;
  stderr: string;
  /** Whether `when` matched stdout, so SIGINT was sent. */
  interrupted: boolean;
}

/**
 * Runs the real CLI (`seekframe <args>` in `cwd`) in its own process, so a signal goes to it alone,
 * and sends it `signal` (SIGINT) the first time its stdout so far matches `when`.
 */
export async function interruptCliWhen(cwd: string, args: string[], when: RegExp, signal: NodeJS.Signals = 'SIGINT'): Promise<InterruptedRun> {
  const child = spawn(process.execPath, [seekframeBin, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: os.homedir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!interrupted && when.test(stdout)) {
      interrupted = true;
      child.kill(signal);
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr, interrupted };
}
