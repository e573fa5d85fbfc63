import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seekframeBin } from './interrupt-cli.js';
import { cpuSeconds, descendants, stillRunning } from './process-tree.js';

let dir: string;

// Frame 1 blocks the page's main thread for good: nothing the page does can end this render.
const spinning = `<!doctype html><html data-composition-id="s" data-width="32" data-height="32" data-duration="0.3" data-fps="10"><head></head>
<body><div>x</div><script>window.__seekframe.onSeek((t) => { if (t > 0) { while (true) {} } });</script></body></html>`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-serve-spin-'));
  await mkdir(path.join(dir, 'spin'));
  await writeFile(path.join(dir, 'spin', 'index.html'), spinning);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

it('SIGTERM to `seekframe serve` while a page spins: the server exits 0 and no browser process is left', { timeout: 90_000 }, async () => {
  // Page timeouts far beyond the test: only the shutdown can end this render.
  const child = spawn(process.execPath, [seekframeBin, 'serve', '--port', '0', '--page-timeout-ms', '600000'], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: os.homedir() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    void closed.then(() => reject(new Error(`serve exited: ${output}`)));
  });
  const response = await fetch(`${url}/render/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectDir: 'spin', workers: 1 }),
  });
  const reader = response.body!.getReader();
  let events = '';
  while (!/"stage":"capture"/.test(events)) events += new TextDecoder().decode((await reader.read()).value);
  const browsers = descendants(child.pid!).filter((pid) => /chrom/.test(readFileSync(`/proc/${pid}/comm`, 'utf8')));
  expect(browsers.length).toBeGreaterThan(0);
  // The page spins in its first non-zero seek once one of the browser's processes burns a
  // second of CPU past this point (its renderer; a bound for a machine that barely runs it).
  const before = new Map(browsers.map((pid) => [pid, cpuSeconds(pid)]));
  const spinningBy = Date.now() + 60_000;
  while (!browsers.some((pid) => cpuSeconds(pid) - before.get(pid)! >= 1)) {
    if (Date.now() > spinningBy) throw new Error('waited 60 s for the page to spin (a browser process using a second of CPU)');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGTERM');
  expect(await closed).toBe(0);
  expect(output).toMatch(/SIGTERM: shutting down \(cancelling 0 waiting and 1 running render\(s\)\)/);
  expect(await stillRunning(browsers)).toEqual([]);
});
