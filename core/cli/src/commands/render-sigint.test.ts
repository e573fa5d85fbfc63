import { spawn } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seekframeBin as bin, slowProject } from '../../test/slow-project.js';

let dir: string;

// One worker: long enough to press Ctrl-C in the middle.
beforeAll(async () => {
  dir = await slowProject('seekframe-cli-sigint-');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

it('Ctrl-C (SIGINT) during capture exits 1, says it was cancelled and leaves no output', { timeout: 90_000 }, async () => {
  // The real CLI in its own process, so the signal goes to it alone.
  const child = spawn(
    process.execPath,
    [bin, 'render', '.', '--workers', '1', '--output', 'out/video.mp4'],
    { cwd: dir, env: { PATH: process.env.PATH, HOME: os.homedir() }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    // The first progress line: frames are being captured and encoded.
    if (!interrupted && /capture \d+\/60 frames/.test(stdout)) {
      interrupted = true;
      child.kill('SIGINT');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(interrupted, `never saw progress; stdout: ${stdout} stderr: ${stderr}`).toBe(true);
  expect(code).toBe(1);
  expect(stderr).toMatch(/cancelled \(interrupted \(Ctrl-C\)\); no output was written/);
  expect(await readdir(path.join(dir, 'out')).catch(() => [])).toEqual([]);
});
