import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { main } from '../src/main.js';
import { GATED_COMPOSITION, sse, startServe } from './serve-cli.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-serve-'));
  await mkdir(path.join(dir, 'gated'));
  await writeFile(path.join(dir, 'gated', 'index.html'), GATED_COMPOSITION);
  await writeFile(path.join(dir, 'gated', 'gate.txt'), 'wait');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

it('SIGTERM: cancels the waiting and the running render, leaves no partial output, exits 0', { timeout: 90_000 }, async () => {
  const serve = startServe(dir, ['--max-concurrent-renders', '1']);
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
  expect(await run(['--max-concurrent-renders', '11'])).toEqual({
    code: 1,
    stderr: expect.stringMatching(/--max-concurrent-renders must be 1-10/),
  });
  expect(await run([], { PRODUCER_MAX_CONCURRENT_RENDERS: '0' })).toEqual({
    code: 1,
    stderr: expect.stringMatching(/PRODUCER_MAX_CONCURRENT_RENDERS must be 1-10/),
  });
  expect(await run(['--max-queued-renders', 'many'])).toEqual({
    code: 1,
    stderr: expect.stringMatching(/--max-queued-renders must be a whole number/),
  });
  expect(await run([], { PRODUCER_JOB_RETENTION_SECONDS: '1.5' })).toEqual({
    code: 1,
    stderr: expect.stringMatching(/PRODUCER_JOB_RETENTION_SECONDS must be a whole number/),
  });
  expect(await run(['--job-retention-seconds', '999999'])).toEqual({
    code: 1,
    stderr: expect.stringMatching(/--job-retention-seconds must be 0-604800/),
  });
  expect(await run(['--warm-browsers', '33'])).toEqual({ code: 1, stderr: expect.stringMatching(/--warm-browsers must be 0-32/) });
  expect(await run([], { PRODUCER_BROWSER_IDLE_SECONDS: 'soon' })).toEqual({
    code: 1,
    stderr: expect.stringMatching(/PRODUCER_BROWSER_IDLE_SECONDS must be a whole number/),
  });
  expect(await run(['--host', '0.0.0.0'])).toEqual({
    code: 1,
    stderr: expect.stringMatching(/will not listen on 0\.0\.0\.0 without authentication.*PRODUCER_AUTH_TOKEN/),
  });
});

it('PRODUCER_AUTH_TOKEN only in the process environment: every route answers 401 without it and serves with it', {
  timeout: 60_000,
}, async () => {
  const serve = startServe(dir, [], { PRODUCER_AUTH_TOKEN: 'serve-env-token-4a' });
  try {
    const url = await serve.url;
    expect(serve.output()).toMatch(/auth on/);
    for (const [route, method] of [
      ['/health', 'GET'],
      ['/render', 'POST'],
      ['/render/queue', 'GET'],
    ] as const) {
      const answer = await fetch(`${url}${route}`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(answer.status, route).toBe(401);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
    const served = await fetch(`${url}/health`, { headers: { authorization: 'Bearer serve-env-token-4a' } });
    expect(served.status).toBe(200);
    await served.arrayBuffer();
  } finally {
    serve.child.kill('SIGTERM');
    await new Promise((resolve) => serve.child.once('close', resolve));
  }
});

it('a variable set but blank refuses the start naming it (PRODUCER_AUTH_TOKEN="" is not "no token")', async () => {
  for (const [name, value] of [
    ['PRODUCER_AUTH_TOKEN', ''],
    ['PRODUCER_AUTH_TOKEN', '   '],
    ['PRODUCER_MAX_FRAMES', ''],
    ['PRODUCER_WARM_BROWSERS', ' '],
  ] as const) {
    let stderr = '';
    const code = await main(['node', 'seekframe', 'serve', '--port', '0'], {
      cwd: dir,
      env: { NO_COLOR: '1', [name]: value },
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    });
    expect({ name, value, code }).toEqual({ name, value, code: 1 });
    expect(stderr, `${name}=${JSON.stringify(value)}`).toMatch(new RegExp(`${name} is (set but blank|only whitespace)`));
  }
});
