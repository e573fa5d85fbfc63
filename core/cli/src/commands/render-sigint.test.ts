import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

// The published entry point, on the built dist/ (scripts/test.sh builds before the suite).
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/seekframe.js');
let dir: string;

// 4 s at 15 fps with one worker: long enough to press Ctrl-C in the middle.
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-sigint-'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html data-composition-id="s" data-width="160" data-height="90" data-duration="4" data-fps="15"><head></head>
<body><div id="n"></div><script>window.__seekframe.onSeek((t) => { document.getElementById('n').textContent = String(t); });</script></body></html>`,
  );
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
