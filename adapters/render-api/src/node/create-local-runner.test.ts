import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunnerEvent, RunnerJob } from '../ports.js';
import { createLocalFolderStorage } from '@seekframe/producer';
import type { ObjectStore } from '../ports.js';
import { createLocalRunner, renderArguments, type LocalRunnerOptions } from './create-local-runner.js';
import { serveLocal } from './serve-local.js';

const job: RunnerJob = {
  id: 'j1',
  request: { variables: { title: 'Hi' }, format: 'mp4', quality: 'draft', fps: 12 },
  outputKey: 'renders/j1.mp4',
  contentType: 'video/mp4',
  limits: { maxFrames: 100, maxRenderSeconds: 60, maxPixels: 1000 },
};

describe('renderArguments', () => {
  it('passes the request and the deployment limits to seekframe render, variables by file and strictly', () => {
    expect(
      renderArguments(job, { project: '/p', output: '/o.mp4', variablesFile: '/v.json' }, { workers: 'auto', browserGpu: false }),
    ).toEqual([
      'render',
      '/p',
      '--json',
      '--output',
      '/o.mp4',
      '--format',
      'mp4',
      '--workers',
      'auto',
      '--no-browser-gpu',
      '--network',
      'sandboxed',
      '--quality',
      'draft',
      '--fps',
      '12',
      '--variables-file',
      '/v.json',
      '--strict-variables',
      '--max-frames',
      '100',
      '--max-render-seconds',
      '60',
      '--max-pixels',
      '1000',
    ]);
  });

  it('passes RENDER_MAX_MEMORY_MB as --max-memory when the deployment sets it (else the CLI default applies)', () => {
    const args = renderArguments(
      { ...job, limits: { ...job.limits, maxMemoryMB: 2048 } },
      { project: '/p', output: '/o.mp4', variablesFile: '/v.json' },
      { workers: 'auto', browserGpu: false },
    );
    expect(args.slice(-2)).toEqual(['--max-memory', '2048']);
  });

  it('a still is seekframe still at its time or frame: no format, workers or quality; frames as a span', () => {
    const paths = { project: '/p', output: '/o.png', variablesFile: '/v.json' };
    const still = renderArguments({ ...job, request: { ...job.request, still: { time: 1.5 } } }, paths, {
      workers: 'auto',
      browserGpu: false,
    });
    expect(still.join(' ')).toBe(
      'still /p --json --output /o.png --time 1.5s --network sandboxed --fps 12 --variables-file /v.json --strict-variables --max-frames 100 --max-render-seconds 60 --max-pixels 1000',
    );
    const frame = renderArguments({ ...job, request: { ...job.request, still: { frame: 45 } } }, paths, {
      workers: 'auto',
      browserGpu: true,
    });
    expect(frame.slice(0, 9)).toEqual(['still', '/p', '--json', '--output', '/o.png', '--frame', '45', '--browser-gpu', '--network']);
    const span = renderArguments({ ...job, request: { ...job.request, frames: { start: 3, end: 9 } } }, paths, {
      workers: 2,
      browserGpu: false,
    });
    expect(span.join(' ')).toContain('--fps 12 --frames 3-9 --variables-file');
  });
});

/**
 * A stand-in CLI (a real child process) so the runner's process handling is tested without a
 * render: it prints JSON event lines, writes --output, and for "hang" waits until killed.
 */
const FAKE_CLI = `#!/usr/bin/env node
const fs = require('node:fs');
const args = process.argv.slice(2);
const output = args[args.indexOf('--output') + 1];
const vars = JSON.parse(fs.readFileSync(args[args.indexOf('--variables-file') + 1], 'utf8'));
fs.writeFileSync(output + '.pid', String(process.pid));
console.log('not json: a log line');
console.log(JSON.stringify({ type: 'stage', stage: 'capture' }));
if (vars.title === 'hang') { setInterval(() => {}, 1000); return; }
if (vars.title === 'fail') { console.log(JSON.stringify({ type: 'error', error: { code: 'page-script-error', message: 'boom', stage: 'capture', retryable: false } })); process.exit(1); }
fs.writeFileSync(output, 'VIDEO:' + vars.title);
console.log(JSON.stringify({ type: 'complete', output, size: 6, durationMs: 5, videoDuration: 1 }));
`;

let dir: string;
let cli: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'render-api-runner-'));
  cli = path.join(dir, 'fake-seekframe.cjs');
  await writeFile(cli, FAKE_CLI);
  await chmod(cli, 0o755);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function runner(maxConcurrent = 2) {
  // The core's storage passed as this package's ObjectStore: the two ports are one shape.
  const objects: ObjectStore = createLocalFolderStorage({ root: path.join(dir, 'store') });
  const local = createLocalRunner({
    compositionDir: dir,
    objects,
    cli: { command: process.execPath, args: [cli] },
    maxConcurrent,
    tempDir: dir,
  });
  return { objects, local };
}

const withTitle = (id: string, title: string): RunnerJob => ({
  ...job,
  id,
  outputKey: `renders/${id}.mp4`,
  request: { ...job.request, variables: { title } },
});

describe('createLocalRunner', () => {
  it('forwards the JSON event lines and stores the output under the job key', async () => {
    const { objects, local } = runner();
    const events: RunnerEvent[] = [];
    const outcome = await local.start(withTitle('ok', 'Hi'), { emit: (e) => events.push(e), signal: new AbortController().signal });
    expect(outcome).toEqual({ kind: 'stored', durationMs: 5 });
    expect(events.map((e) => e.type)).toEqual(['stage', 'complete']);
    expect(await new Response((await objects.get('renders/ok.mp4'))!.body).text()).toBe('VIDEO:Hi');
  });

  it("rejects with the CLI's own error", async () => {
    const { local } = runner();
    await expect(
      local.start(withTitle('bad', 'fail'), { emit: () => undefined, signal: new AbortController().signal }),
    ).rejects.toMatchObject({ code: 'page-script-error', message: 'boom' });
  });

  it('cancel(id) ends the child process and the start rejects with render-cancelled; its temp folder is removed', async () => {
    const { local } = runner();
    let stage = false;
    const started = local.start(withTitle('hang', 'hang'), {
      emit: (e) => (stage ||= e.type === 'stage'),
      signal: new AbortController().signal,
    });
    while (!stage) await new Promise((resolve) => setTimeout(resolve, 20));
    const work = (await import('node:fs/promises')).readdir(dir);
    const jobFolder = (await work).find((name) => name.startsWith('seekframe-job-'))!;
    const pid = Number(await readFile(path.join(dir, jobFolder, 'output.mp4.pid'), 'utf8'));
    await local.cancel('hang');
    await expect(started).rejects.toMatchObject({ code: 'render-cancelled' });
    expect(() => process.kill(pid, 0)).toThrow();
    expect((await (await import('node:fs/promises')).readdir(dir)).filter((name) => name.startsWith('seekframe-job-'))).toEqual([]);
  });

  it('refuses to start without `cli` (this package does not find the CLI itself), naming the option and the fix', async () => {
    const objects: ObjectStore = createLocalFolderStorage({ root: path.join(dir, 'store') });
    for (const cli of [undefined, { command: '', args: [] }, { command: process.execPath }]) {
      expect(() => createLocalRunner({ compositionDir: dir, objects, cli } as unknown as LocalRunnerOptions)).toThrow(
        expect.objectContaining({ code: 'invalid-server-options', message: expect.stringMatching(/needs `cli`.*seekframe\/bin-path/) }),
      );
    }
    const dataDir = path.join(dir, 'data');
    await expect(serveLocal({ compositionDir: dir, dataDir } as unknown as Parameters<typeof serveLocal>[0])).rejects.toMatchObject({
      code: 'invalid-server-options',
      message: expect.stringContaining('needs `runner.cli`'),
    });
  });

  it('refuses a render over its concurrency with too-many-renders', async () => {
    const { local } = runner(1);
    const controller = new AbortController();
    const first = local.start(withTitle('h1', 'hang'), { emit: () => undefined, signal: controller.signal });
    await expect(local.start(withTitle('h2', 'Hi'), { emit: () => undefined, signal: new AbortController().signal })).rejects.toMatchObject(
      { code: 'too-many-renders', retryable: true },
    );
    controller.abort();
    await expect(first).rejects.toMatchObject({ code: 'render-cancelled' });
  });
});
