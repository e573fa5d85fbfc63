import os from 'node:os';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from './run-cli.js';
import { slowProject } from './interrupt-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await slowProject('seekframe-cli-limits-'); // 160x90, 4 s at 15 fps = 60 frames
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const env = { PATH: process.env.PATH, HOME: os.homedir() };

it('--max-frames and --max-pixels refuse the render before it starts, naming the flag', { timeout: 60_000 }, async () => {
  const frames = await runCli(['render', '.', '--max-frames', '30', '--output', 'out/a.mp4'], { cwd: dir, env });
  expect(frames.code).toBe(1);
  expect(frames.stderr).toMatch(/60 frames, more than the limit of 30 \(--max-frames\)/);
  const pixels = await runCli(['render', '.', '--max-pixels', '1000', '--output', 'out/a.mp4'], { cwd: dir, env });
  expect(pixels.code).toBe(1);
  expect(pixels.stderr).toMatch(/160x90 = 14400 pixels, more than the limit of 1000 \(--max-pixels\)/);
  expect(await readdir(path.join(dir, 'out')).catch(() => [])).toEqual([]);
});

it('a bad limit value is a usage error naming the flag', async () => {
  const bad = await runCli(['render', '.', '--max-frames', 'many'], { cwd: dir, env });
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toMatch(/--max-frames must be a whole number/);
});

it('--max-render-seconds cancels a render that runs longer, with render-timeout', { timeout: 90_000 }, async () => {
  // Frame 1 never gets ready (the page's own 30 s seek timeout is far away): only the wall-time limit ends it.
  await writeFile(
    path.join(dir, 'stuck.html'),
    `<!doctype html><html data-composition-id="s" data-width="160" data-height="90" data-duration="1" data-fps="10"><head></head>
<body><div>x</div><script>window.__seekframe.onSeek((t) => (t > 0 ? new Promise(() => {}) : undefined));</script></body></html>`,
  );
  const timed = await runCli(['render', 'stuck.html', '--workers', '1', '--max-render-seconds', '2', '--output', 'out/b.mp4'], {
    cwd: dir,
    env,
  });
  expect(timed.code).toBe(1);
  expect(timed.stderr).toMatch(/ran longer than the limit of 2 s \(--max-render-seconds\)/);
  expect(await readdir(path.join(dir, 'out')).catch(() => [])).toEqual([]);
});
