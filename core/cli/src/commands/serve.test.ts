import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../main.js';

// The published entry point, on the built dist/ (scripts/test.sh builds before the suite).
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/seekframe.js');
let dir: string;

// Frame 1 of this composition waits for gate.txt to say "go", which never happens: the render
// stays in capture until the server cancels it.
const gated = `<!doctype html><html data-composition-id="g" data-width="32" data-height="32" data-duration="0.2" data-fps="10"><head></head>
<body><div style="width:32px;height:32px;background:#36f"></div><script>
const ticker = new Worker(URL.createObjectURL(new Blob(['setInterval(() => postMessage(0), 25)'], { type: 'text/javascript' })));
window.__seekframe.onSeek(async (t) => {
  if (t === 0) return;
  while ((await fetch('gate.txt', { cache: 'no-store' }).then((r) => r.text()).catch(() => '')).trim() !== 'go') {
    await new Promise((resolve) => ticker.addEventListener('message', resolve, { once: true }));
  }
});
</script></body></html>`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-serve-'));
  await mkdir(path.join(dir, 'gated'));
  await writeFile(path.join(dir, 'gated', 'index.html'), gated);
  await writeFile(path.join(dir, 'gated', 'gate.txt'), 'wait');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Reads SSE messages from POST /render/stream until the server ends the stream. */
async function* sse(url: string, body: unknown): AsyncGenerator<{ type: string; [key: string]: unknown }> {
  const response = await fetch(`${url}/render/stream`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body!) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
      buffer = buffer.slice(end + 2);
      if (data) yield JSON.parse(data.slice(6)) as { type: string };
    }
  }
}

function startServe(args: string[]): { child: ChildProcessWithoutNullStreams; url: Promise<string>; output: () => string } {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: os.homedir() },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let text = '';
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /serving (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.on('close', () => reject(new Error(`serve exited: ${text}`)));
  });
  return { child, url, output: () => text };
}

it('SIGTERM: cancels the waiting and the running render, leaves no partial output, exits 0', { timeout: 90_000 }, async () => {
  const serve = startServe(['--max-concurrent-renders', '1']);
  const url = await serve.url;
  const runningEvents: string[] = [];
  const waitingEvents: string[] = [];
  let sawProgress!: () => void;
  const progressed = new Promise<void>((resolve) => (sawProgress = resolve));
  const running = (async () => {
    for await (const event of sse(url, { projectDir: 'gated', workers: 1 })) {
      runningEvents.push(event.type);
      if (event.type === 'progress') sawProgress();
    }
  })();
  await progressed;
  let queued!: () => void;
  const isQueued = new Promise<void>((resolve) => (queued = resolve));
  const waiting = (async () => {
    for await (const event of sse(url, { projectDir: 'gated', workers: 1 })) {
      waitingEvents.push(event.type);
      if (event.type === 'queued') queued();
    }
  })();
  await isQueued;

  serve.child.kill('SIGTERM');
  const code = await new Promise<number | null>((resolve) => serve.child.on('close', resolve));
  await Promise.all([running, waiting]);
  expect(code).toBe(0);
  expect(serve.output()).toMatch(/SIGTERM: shutting down \(cancelling 1 waiting and 1 running render\(s\)\)/);
  expect(runningEvents.at(-1)).toBe('cancelled');
  expect(waitingEvents).toEqual(['queued', 'cancelled']);
  expect(await readdir(path.join(dir, '.seekframe', 'outputs'))).toEqual([]);
});

it('start-up errors name the flag or variable and exit 1', async () => {
  const run = async (args: string[], env: Record<string, string> = {}) => {
    let stderr = '';
    const code = await main(['node', 'seekframe', 'serve', ...args], {
      cwd: dir,
      env: { NO_COLOR: '1', ...env },
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    });
    return { code, stderr };
  };
  expect(await run(['--max-concurrent-renders', '11'])).toEqual({ code: 1, stderr: expect.stringMatching(/--max-concurrent-renders must be 1-10/) });
  expect(await run([], { PRODUCER_MAX_CONCURRENT_RENDERS: '0' })).toEqual({ code: 1, stderr: expect.stringMatching(/PRODUCER_MAX_CONCURRENT_RENDERS must be 1-10/) });
  expect(await run(['--max-queued-renders', 'many'])).toEqual({ code: 1, stderr: expect.stringMatching(/--max-queued-renders must be a whole number/) });
  expect(await run([], { PRODUCER_JOB_RETENTION_SECONDS: '1.5' })).toEqual({ code: 1, stderr: expect.stringMatching(/PRODUCER_JOB_RETENTION_SECONDS must be a whole number/) });
  expect(await run(['--job-retention-seconds', '999999'])).toEqual({ code: 1, stderr: expect.stringMatching(/--job-retention-seconds must be 0-604800/) });
  expect(await run(['--warm-browsers', '33'])).toEqual({ code: 1, stderr: expect.stringMatching(/--warm-browsers must be 0-32/) });
  expect(await run([], { PRODUCER_BROWSER_IDLE_SECONDS: 'soon' })).toEqual({ code: 1, stderr: expect.stringMatching(/PRODUCER_BROWSER_IDLE_SECONDS must be a whole number/) });
  expect(await run(['--host', '0.0.0.0'])).toEqual({ code: 1, stderr: expect.stringMatching(/will not listen on 0\.0\.0\.0 without authentication.*PRODUCER_AUTH_TOKEN/) });
});
