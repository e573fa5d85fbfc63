import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { interruptCliWhen, slowProject } from './interrupt-cli.js';

let dir: string;

// One worker: long enough to press Ctrl-C in the middle.
beforeAll(async () => {
  dir = await slowProject('seekframe-cli-sigint-');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

it('Ctrl-C (SIGINT) during capture exits 1, says it was cancelled and leaves no output', { timeout: 90_000 }, async () => {
  // The first progress line: frames are being captured and encoded.
  const { code, stdout, stderr, interrupted, tmp } = await interruptCliWhen(
    dir,
    ['render', '.', '--workers', '1', '--output', 'out/video.mp4'],
    /capture \d+\/60 frames/,
  );
  try {
    expect(interrupted, `never saw progress; stdout: ${stdout} stderr: ${stderr}`).toBe(true);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cancelled \(interrupted \(Ctrl-C\)\); no output was written/);
    expect(await readdir(path.join(dir, 'out')).catch(() => [])).toEqual([]);
    expect(await readdir(tmp)).toEqual([]);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});
