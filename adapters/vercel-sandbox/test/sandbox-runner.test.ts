import { readdir, readlink, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import type { JobUpdate, RenderJob, RenderRunner } from '@seekframe/render-api';
import { BlobStorage } from '../src/blob/blob-storage.js';
import { LocalSandboxProvider } from '../src/local/local-sandbox.js';
import { blobSandboxRegistry } from '../src/runner/blob-sandbox-registry.js';
import { createSandboxRunner, launchJob } from '../src/runner/sandbox-runner.js';
import { localRecipe } from '../src/sandbox/sandbox-recipe.js';
import { createSnapshot } from '../src/snapshot/create-snapshot.js';
import { readSnapshotPointer, type PointerLookup } from '../src/snapshot/snapshot-pointer.js';
import { startBlobFake, type BlobFake } from '../src/testing/blob-fake-server.js';
import { buildSandboxScripts, CLI_BIN, eventCollector, ffprobe, runnerJob, tinyComposition } from './fixtures.js';

// The runner end to end on this machine: local sandboxes (temp folders, child processes), the
// real Seekframe CLI with Chromium and ffmpeg, the upload script talking to the Blob stand-in.

let fake: BlobFake;
let storage: BlobStorage;
let provider: LocalSandboxProvider;
let jobScript: Uint8Array;
let scratch: string;
const logs: string[] = [];
const previousApiUrl = process.env.VERCEL_BLOB_API_URL;

beforeAll(async () => {
  fake = await startBlobFake();
  process.env.VERCEL_BLOB_API_URL = fake.apiUrl;
  storage = new BlobStorage({ token: fake.token, access: 'public' });
  jobScript = await buildSandboxScripts();
  scratch = await mkdtemp(path.join(tmpdir(), 'seekframe-vercel-runner-'));
});
afterAll(async () => {
  process.env.VERCEL_BLOB_API_URL = previousApiUrl;
  await fake?.close();
  await rm(scratch, { recursive: true, force: true });
});
afterEach(async () => {
  await provider?.dispose();
  logs.length = 0;
});

function makeRunner(
  options: { lookup?: () => Promise<PointerLookup>; duration?: number; script?: string; maxConcurrent?: number; shared?: boolean } = {},
): RenderRunner {
  return createSandboxRunner({
    provider,
    recipe: localRecipe({ cliBin: CLI_BIN }),
    lookupSnapshot: options.lookup ?? (async () => ({ pointer: null, reason: 'VERCEL_DEPLOYMENT_ID is not set' })),
    compositionFiles: async () =>
      tinyComposition({
        ...(options.duration ? { duration: options.duration } : {}),
        ...(options.script ? { script: options.script } : {}),
      }),
    blob: { token: fake.token, access: 'public', apiUrl: fake.apiUrl },
    jobScript: async () => jobScript,
    log: (line) => logs.push(line),
    ...(options.maxConcurrent ? { maxConcurrent: options.maxConcurrent } : {}),
    ...(options.shared ? { registry: blobSandboxRegistry(storage) } : {}),
    findOutput: async (key) => {
      const info = await storage.head(key);
      return info ? { url: info.url, size: info.size, contentType: info.contentType } : null;
    },
  });
}

/** The API's record of a job (what `poll` gets). */
function jobRecord(id: string, totalFrames: number): RenderJob {
  const job = runnerJob(id);
  const now = new Date().toISOString();
  return {
    id,
    status: 'running',
    stage: null,
    progress: 0,
    framesRendered: 0,
    totalFrames,
    request: job.request,
    outputKey: job.outputKey,
    createdAt: now,
    updatedAt: now,
    expiresAt: now,
  };
}

/** Processes whose working folder is (or was) inside `folder`. */
async function processesIn(folder: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
    if (cwd.startsWith(folder)) found.push(Number(entry));
  }
  return found;
}

describe('createSandboxRunner with local sandboxes', () => {
  it('renders in a fresh sandbox (logging why), streams progress, uploads from inside the sandbox, then stops it', async () => {
    provider = await LocalSandboxProvider.create();
    const runner = makeRunner();
    const collector = eventCollector();
    const job = runnerJob('job-ok', { variables: { bg: '#ff0000' } });
    const outcome = await runner.start(job, { emit: collector.emit, signal: new AbortController().signal });

    expect(outcome).toMatchObject({ kind: 'stored' });
    expect(logs.join('\n')).toMatch(/building a fresh sandbox from local: VERCEL_DEPLOYMENT_ID is not set/);
    const types = new Set(collector.events.map((event) => event.type));
    expect(types).toEqual(expect.objectContaining({}));
    expect([...types]).toEqual(expect.arrayContaining(['stage', 'progress', 'complete']));
    const last = collector.events.filter((event) => event.type === 'progress').at(-1);
    expect(last).toMatchObject({ framesRendered: 10, totalFrames: 10 });

    // One sandbox, stopped, and it ran the CLI with JSON lines and --workers auto.
    expect(provider.sandboxes).toHaveLength(1);
    const [record] = provider.sandboxes;
    expect(record?.stopped).toBe(true);
    expect(record?.options).toMatchObject({ vcpus: 4 });
    expect(record?.commands.some((c) => c.endsWith('seekframe-scripts/run-job.mjs jobs/job-ok/spec.json'))).toBe(true);

    // The MP4 is in Blob (put there by the script inside the sandbox) and is a real video.
    expect(fake.pathnames()).toContain('renders/job-ok.mp4');
    const read = await storage.read('renders/job-ok.mp4');
    const file = path.join(scratch, 'job-ok.mp4');
    await writeFile(file, Buffer.from(await (read!.response as Response).arrayBuffer()));
    expect(await ffprobe(file)).toMatchObject({ codec_name: 'h264', width: 160, height: 90, nb_read_frames: '10' });
  });

  it('a failing render rejects with the CLI error and the sandbox is stopped', async () => {
    provider = await LocalSandboxProvider.create();
    const runner = makeRunner({ script: 'throw new Error("composition bug")' });
    const collector = eventCollector();
    const failure = await runner
      .start(runnerJob('job-bad'), { emit: collector.emit, signal: new AbortController().signal })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SeekframeError);
    expect((failure as SeekframeError).code).toBe('page-script-error');
    expect((failure as SeekframeError).message).toMatch(/composition bug/);
    expect(collector.events.some((event) => event.type === 'error')).toBe(true);
    expect(provider.sandboxes.every((s) => s.stopped)).toBe(true);
    expect(fake.pathnames()).not.toContain('renders/job-bad.mp4');
  });

  it('the page is untrusted: it cannot reach a service beside it (a secret server on loopback sees no request)', async () => {
    const hits: string[] = [];
    const secret = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('secret');
    });
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    const port = (secret.address() as AddressInfo).port;
    try {
      provider = await LocalSandboxProvider.create();
      const runner = makeRunner({
        script: `fetch('http://127.0.0.1:${port}/from-fetch').catch(() => {}); const i = new Image(); i.src = 'http://127.0.0.1:${port}/from-img';`,
      });
      await runner
        .start(runnerJob('job-secret'), { emit: () => undefined, signal: new AbortController().signal })
        .catch((error: unknown) => error);
      expect(provider.sandboxes[0]?.stopped).toBe(true);
      expect(hits).toEqual([]);
    } finally {
      await new Promise((resolve) => secret.close(resolve));
    }
  });

  it('cancel during capture stops the sandbox and every process in it', async () => {
    provider = await LocalSandboxProvider.create();
    const runner = makeRunner({ duration: 60 });
    const collector = eventCollector();
    const started = runner
      .start(runnerJob('job-cancel'), { emit: collector.emit, signal: new AbortController().signal })
      .catch((error: unknown) => error);
    await collector.waitFor('progress');
    const folder = provider.sandboxes[0]?.folder as string;
    expect((await processesIn(folder)).length).toBeGreaterThan(0);
    await runner.cancel('job-cancel');
    const failure = await started;
    expect((failure as SeekframeError).code).toBe('render-cancelled');
    expect(provider.sandboxes[0]?.stopped).toBe(true);
    expect(await processesIn(folder)).toEqual([]);
    expect(fake.pathnames()).not.toContain('renders/job-cancel.mp4');
  });

  it('the API aborting the job signal cancels it the same way', async () => {
    provider = await LocalSandboxProvider.create();
    const runner = makeRunner({ duration: 60 });
    const collector = eventCollector();
    const abort = new AbortController();
    const started = runner.start(runnerJob('job-abort'), { emit: collector.emit, signal: abort.signal }).catch((error: unknown) => error);
    await collector.waitFor('progress');
    abort.abort();
    expect(((await started) as SeekframeError).code).toBe('render-cancelled');
    expect(provider.sandboxes[0]?.stopped).toBe(true);
  });

  it('a cancel that reaches another function instance stops the sandbox through the shared registry', async () => {
    provider = await LocalSandboxProvider.create();
    const instanceA = makeRunner({ duration: 60, shared: true });
    const instanceB = makeRunner({ duration: 60, shared: true });
    const collector = eventCollector();
    const started = instanceA
      .start(runnerJob('job-remote'), { emit: collector.emit, signal: new AbortController().signal })
      .catch((error: unknown) => error);
    await collector.waitFor('progress');
    expect(fake.pathnames()).toContain('sandboxes/job-remote.json');
    await instanceB.cancel('job-remote');
    expect(provider.sandboxes[0]?.stopped).toBe(true);
    expect(logs.join('\n')).toMatch(/stopping sandbox .* of cancelled render job-remote/);
    // Instance A's render ends (its sandbox is gone) instead of running to the end.
    expect(await started).toBeInstanceOf(SeekframeError);
    expect(fake.pathnames()).not.toContain('renders/job-remote.mp4');
  });

  it('at its limit it refuses with too-many-renders', async () => {
    provider = await LocalSandboxProvider.create();
    const runner = makeRunner({ duration: 60, maxConcurrent: 1 });
    const collector = eventCollector();
    const first = runner
      .start(runnerJob('job-1'), { emit: collector.emit, signal: new AbortController().signal })
      .catch((error: unknown) => error);
    const second = await runner
      .start(runnerJob('job-2'), { emit: () => undefined, signal: new AbortController().signal })
      .catch((error: unknown) => error);
    expect((second as SeekframeError).code).toBe('too-many-renders');
    await runner.cancel('job-1');
    expect(((await first) as SeekframeError).code).toBe('render-cancelled');
  });
});

describe('poll: a render whose function is gone', () => {
  it('goes on in its sandbox (render and upload); poll reports its progress, then the stored file, and stops the sandbox', async () => {
    provider = await LocalSandboxProvider.create();
    // What start() does up to the point where a function could end: sandbox, registry, job script.
    const sandbox = await provider.create({ image: 'local', vcpus: 4, timeoutMs: 600_000 });
    await blobSandboxRegistry(storage).put('job-orphan', sandbox.name);
    await launchJob(sandbox, runnerJob('job-orphan'), {
      recipe: localRecipe({ cliBin: CLI_BIN }),
      compositionFiles: async () => tinyComposition({ duration: 6 }),
      blob: { token: fake.token, access: 'public', apiUrl: fake.apiUrl },
      jobScript: async () => jobScript,
    });
    // Nobody watches it now. Another instance answers the status requests.
    const other = makeRunner({ shared: true });
    const updates: JobUpdate[] = [];
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const update = await other.poll?.(jobRecord('job-orphan', 60));
      if (update) updates.push(update);
      if (update?.status === 'completed' || update?.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(
      updates.some((u) => u.status === 'running' && typeof u.framesRendered === 'number'),
      JSON.stringify(updates),
    ).toBe(true);
    const last = updates.at(-1);
    expect(last).toMatchObject({
      status: 'completed',
      progress: 1,
      result: { key: 'renders/job-orphan.mp4', url: expect.stringMatching(/\/store\/renders\/job-orphan\.mp4$/) },
    });
    expect(fake.pathnames()).toContain('renders/job-orphan.mp4');
    expect(provider.sandboxes[0]?.stopped).toBe(true);
  });

  it('a sandbox gone without a stored file is a failed render; with the file it is completed', async () => {
    provider = await LocalSandboxProvider.create();
    const registry = blobSandboxRegistry(storage);
    const sandbox = await provider.create({ image: 'local', vcpus: 4, timeoutMs: 600_000 });
    await registry.put('job-gone', sandbox.name);
    await sandbox.stop();
    const other = makeRunner({ shared: true });
    expect(await other.poll?.(jobRecord('job-gone', 10))).toMatchObject({
      status: 'failed',
      error: { code: 'render-failed', message: expect.stringMatching(/stopped before the render finished/) },
    });
    await storage.put('renders/job-gone.mp4', Buffer.from('mp4 bytes'), { contentType: 'video/mp4', overwrite: false });
    expect(await other.poll?.(jobRecord('job-gone', 10))).toMatchObject({
      status: 'completed',
      result: { key: 'renders/job-gone.mp4', size: 9 },
    });
    // Not started anywhere yet: nothing to say.
    expect(await other.poll?.(jobRecord('job-unknown', 10))).toBeNull();
  });
});

describe('snapshot: the build step and the restore', () => {
  it('createSnapshot sets up, smoke-renders, snapshots and records the pointer; renders then restore from it', async () => {
    provider = await LocalSandboxProvider.create();
    const pointer = await createSnapshot({
      provider,
      recipe: localRecipe({ cliBin: CLI_BIN }),
      storage,
      deploymentId: 'dpl_test1',
      compositionFiles: async () => tinyComposition(),
      log: (line) => logs.push(line),
    });
    expect(fake.pathnames()).toContain('snapshot-cache/dpl_test1.json');
    const lookup = await readSnapshotPointer(storage, 'dpl_test1');
    expect(lookup.pointer).toMatchObject({ snapshotId: pointer.snapshotId, image: 'local', smokeRender: { size: expect.any(Number) } });
    expect(provider.sandboxes[0]?.stopped).toBe(true);
    expect(provider.sandboxes[0]?.commands.some((c) => c.includes(' render smoke/project'))).toBe(true);

    logs.length = 0;
    const runner = makeRunner({ lookup: () => readSnapshotPointer(storage, 'dpl_test1') });
    await runner.start(runnerJob('job-snap'), { emit: () => undefined, signal: new AbortController().signal });
    const restored = provider.sandboxes[1];
    expect(restored?.fromSnapshot).toBe(pointer.snapshotId);
    // Restored: no set-up step ran again, nothing said "fresh".
    expect(restored?.commands.some((c) => c.includes('--version'))).toBe(false);
    expect(logs.join('\n')).not.toMatch(/fresh sandbox/);
    expect(restored?.stopped).toBe(true);
  });

  it('an expired snapshot falls back to a fresh sandbox and says why', async () => {
    provider = await LocalSandboxProvider.create();
    const runner = makeRunner({
      lookup: async () => ({ pointer: { snapshotId: 'snap_gone', createdAt: new Date().toISOString(), image: 'local' } }),
    });
    await runner.start(runnerJob('job-expired'), { emit: () => undefined, signal: new AbortController().signal });
    expect(logs.join('\n')).toMatch(/fresh sandbox from local: snapshot snap_gone could not be restored \(snapshot snap_gone not found/);
    expect(provider.sandboxes[0]?.fromSnapshot).toBeNull();
    expect(provider.sandboxes[0]?.stopped).toBe(true);
  });

  it('no pointer in Blob, or no deployment id: the lookup gives the reason', async () => {
    expect(await readSnapshotPointer(storage, undefined)).toEqual({
      pointer: null,
      reason: expect.stringMatching(/VERCEL_DEPLOYMENT_ID is not set/),
    });
    expect(await readSnapshotPointer(storage, 'dpl_none')).toEqual({
      pointer: null,
      reason: expect.stringMatching(/no snapshot-cache\/dpl_none\.json in Blob/),
    });
    expect(await readSnapshotPointer(null, 'dpl_x')).toEqual({ pointer: null, reason: expect.stringMatching(/BLOB_READ_WRITE_TOKEN/) });
  });
});
