import { spawn } from 'node:child_process';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { interruptCliWhen, slowProject } from '../../test/interrupt-cli.js';

let dir: string;

beforeAll(async () => {
  dir = await slowProject('seekframe-cli-sigterm-');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** The pid of a process that has exited: a render killed with SIGKILL leaves exactly that behind. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

it('SIGTERM during capture behaves like Ctrl-C, and leftovers of a hard-killed render are swept', { timeout: 90_000 }, async () => {
  const out = path.join(dir, 'out');
  await mkdir(out, { recursive: true });
  // What a render killed with SIGKILL leaves: its temp output, named with its (now dead) pid.
  const stale = `.video.mp4.${await deadPid()}-0123abcd.partial.mp4`;
  await writeFile(path.join(out, stale), 'half a video');
  // Not ours by name: never touched.
  await writeFile(path.join(out, 'notes.partial.txt'), 'mine');

  const { code, stdout, stderr, interrupted } = await interruptCliWhen(dir, ['render', '.', '--workers', '1', '--output', 'out/video.mp4'], /capture \d+\/60 frames/, 'SIGTERM');
  expect(interrupted, `never saw progress; stdout: ${stdout} stderr: ${stderr}`).toBe(true);
  expect(code).toBe(1);
  expect(stderr).toMatch(/cancelled \(stopped \(SIGTERM\)\); no output was written/);
  expect(await readdir(out)).toEqual(['notes.partial.txt']);
});
