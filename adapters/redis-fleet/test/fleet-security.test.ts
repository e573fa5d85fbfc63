import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SeekframeError } from '@seekframe/composition';
import { createLocalFolderStorage, planHash } from '@seekframe/producer';
import { getJson, putJson, renderKeys, type DistributedStore, type StoredPlan } from '@seekframe/producer/distributed';
import { Job, Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeQueue, queueSettings, renderOnFleet, submitFleetRender } from '../src/index.js';
import { frameIndexes, seamProject, tempDir } from '../../aws-lambda/test/support/media.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { until } from './support/until.js';
import { makeCertificates } from './support/tls-certificates.js';
import { startWorker, stopWorkers, type WorkerProcess } from './support/worker-processes.js';

const PASSWORD = 'fleet-secret-4f1c';

/**
 * Who may use the queue and what a worker will do for them: Redis passwords (requirepass) and
 * TLS (rediss://, a CA made at test time), the worker's own limits on top of a plan's, the
 * network sandbox even for a plan that asks for an open network, and SIGTERM that finishes or
 * hands back a chunk. Real redis-server and `seekframe worker` processes throughout.
 */
describe('fleet safety', () => {
  let redis: RedisServer;
  let work: string;
  let storeDir: string;
  let store: DistributedStore;
  let project: Awaited<ReturnType<typeof seamProject>>;
  const workers: WorkerProcess[] = [];
  const settings = (env: NodeJS.ProcessEnv = { REDIS_PASSWORD: PASSWORD }) => queueSettings({ url: redis.url, env });

  beforeAll(async () => {
    [redis, work, project] = await Promise.all([
      startRedis({ password: PASSWORD }),
      tempDir('seekframe-fleet-safety-'),
      seamProject({ seconds: 2, fps: 10, audio: false }),
    ]);
    storeDir = path.join(work, 'store');
    store = createLocalFolderStorage({ root: storeDir }) as DistributedStore;
  }, 120_000);
  afterAll(async () => {
    await stopWorkers(workers);
    await Promise.all([redis?.stop(), project?.cleanup()]);
    if (work) await rm(work, { recursive: true, force: true });
  }, 120_000);

  it('requirepass: no password or a wrong one is refused at once with queue-unavailable naming the reason; a worker started so exits non-zero', async () => {
    for (const env of [{}, { REDIS_PASSWORD: 'wrong' }]) {
      const failure = await probeQueue(settings(env), 30_000).catch((error: unknown) => error);
      expect((failure as SeekframeError).code).toBe('queue-unavailable');
      expect((failure as SeekframeError).message).toMatch(/NOAUTH|WRONGPASS/);
    }
    const refused = await startWorker({ queue: redis.url, store: storeDir, env: { REDIS_PASSWORD: 'wrong' } }).catch(
      (error: unknown) => error,
    );
    expect(String(refused)).toMatch(/exited with [1-9].*WRONGPASS/s);
  });

  it("a worker's --max-frames applies to every plan it takes (the plan itself had no limit): the render fails with limit-exceeded", async () => {
    const worker = await startWorker({
      queue: redis.url,
      store: storeDir,
      env: { REDIS_PASSWORD: PASSWORD },
      args: ['--max-frames', '10', '--queue-name', 'limits'],
    });
    workers.push(worker);
    const failure = await renderOnFleet({
      queue: queueSettings({ url: redis.url, queueName: 'limits', env: { REDIS_PASSWORD: PASSWORD } }),
      store,
      projectDir: project.dir,
      output: path.join(work, 'limited.mp4'),
      pollMs: 500,
    }).catch((error: unknown) => error);
    expect((failure as SeekframeError).code).toBe('limit-exceeded');
    expect((failure as SeekframeError).message).toContain('--max-frames');
  }, 300_000);

  it('the network sandbox holds in a worker even for a plan that asks for an open network: no request reaches a loopback server', async () => {
    const hits: string[] = [];
    const secret = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      res.writeHead(200, { 'access-control-allow-origin': '*' });
      res.end('secret');
    });
    await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(secret.address() as AddressInfo).port}`;
      const probe = path.join(work, 'probe');
      await mkdir(probe, { recursive: true });
      await writeFile(
        path.join(probe, 'index.html'),
        `<!doctype html><html data-composition-id="probe" data-width="160" data-height="90" data-duration="0.5" data-fps="10">
<body style="margin:0;background:#123"><script>
  fetch('${origin}/from-fetch').catch(() => {});
  new Image().src = '${origin}/from-image';
</script></body></html>`,
      );
      const queue = queueSettings({ url: redis.url, queueName: 'sandbox', env: { REDIS_PASSWORD: PASSWORD } });
      // Planned (sandboxed) with no worker on this queue yet; then the stored plan is rewritten to ask
      // for an open network, with a matching hash, as someone with write access to the store could.
      const { renderId, plan } = await submitFleetRender({ queue, store, projectDir: probe });
      const stored = (await getJson<StoredPlan>(store, renderKeys(renderId).plan))!;
      const { hash: _old, ...rest } = { ...stored.plan, network: 'open' };
      const open = { ...rest, hash: planHash(rest as unknown as Parameters<typeof planHash>[0]) };
      await putJson(store, renderKeys(renderId).plan, { ...stored, plan: open });
      const bullQueue = new Queue(queue.queueName, { connection: queue.connection });
      try {
        await bullQueue.add('chunk', { renderId, planHash: open.hash, chunk: 0 }, { jobId: `${renderId}-open` });
        workers.push(
          await startWorker({ queue: redis.url, store: storeDir, env: { REDIS_PASSWORD: PASSWORD }, args: ['--queue-name', 'sandbox'] }),
        );
        await until(
          async () => ['completed', 'failed'].includes(await (await Job.fromId(bullQueue, `${renderId}-open`))!.getState()),
          'the open-network chunk ended',
        );
        expect(plan.plan.hash).not.toBe(open.hash);
      } finally {
        await bullQueue.close();
      }
      expect(hits).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => secret.close(() => resolve()));
    }
  }, 300_000);

  it('SIGTERM: a worker finishes the chunk it renders and exits 0; with no grace it hands the chunk back and another worker renders it', async () => {
    const name = 'shutdown';
    const queue = queueSettings({ url: redis.url, queueName: name, env: { REDIS_PASSWORD: PASSWORD } });
    const first = await startWorker({
      queue: redis.url,
      store: storeDir,
      env: { REDIS_PASSWORD: PASSWORD },
      args: ['--queue-name', name, '--shutdown-grace-seconds', '0'],
    });
    workers.push(first);
    let stopped = false;
    const output = path.join(work, 'handed-back.mp4');
    const rendering = renderOnFleet({
      queue,
      store,
      projectDir: project.dir,
      output,
      chunkFrames: 20,
      pollMs: 500,
      onEvent: (event) => {
        if (!stopped && event.type === 'chunk-progress') {
          stopped = true;
          first.kill('SIGTERM');
        }
      },
    });
    expect(await first.exited).toBe(0);
    expect(first.log()).toMatch(/handed back/);
    const second = await startWorker({
      queue: redis.url,
      store: storeDir,
      env: { REDIS_PASSWORD: PASSWORD },
      args: ['--queue-name', name],
    });
    workers.push(second);
    await rendering;
    expect(await frameIndexes(output)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(second.log()).toMatch(/-c00000: stored 20 frames/);

    // With the default grace the chunk is finished before the worker exits.
    let stoppedAgain = false;
    const again = renderOnFleet({
      queue,
      store,
      projectDir: project.dir,
      output: path.join(work, 'finished.mp4'),
      chunkFrames: 20,
      pollMs: 500,
      onEvent: (event) => {
        if (!stoppedAgain && event.type === 'chunk-progress') {
          stoppedAgain = true;
          second.kill('SIGTERM');
        }
      },
    });
    expect(await second.exited).toBe(0);
    // The chunk is stored; its assemble job waits for a worker.
    workers.push(await startWorker({ queue: redis.url, store: storeDir, env: { REDIS_PASSWORD: PASSWORD }, args: ['--queue-name', name] }));
    await again;
    expect(second.log()).toMatch(/SIGTERM: finishing running chunks[\s\S]*stored 20 frames/);
  }, 300_000);

  it('rediss:// with a CA made at test time: a worker and the submitter render over TLS; without the CA the certificate is refused by name', async () => {
    const certs = await makeCertificates(await tempDir('seekframe-fleet-tls-'));
    const tls = await startRedis({ password: PASSWORD, tls: certs });
    try {
      const env = { REDIS_PASSWORD: PASSWORD, REDIS_TLS_CA_FILE: certs.ca };
      const refused = await probeQueue(queueSettings({ url: tls.url, env: { REDIS_PASSWORD: PASSWORD } }), 30_000).catch(
        (error: unknown) => error,
      );
      expect((refused as SeekframeError).code).toBe('queue-unavailable');
      expect((refused as SeekframeError).message).toMatch(/certificate/i);
      const worker = await startWorker({ queue: tls.url, store: storeDir, env });
      workers.push(worker);
      const output = path.join(work, 'tls.mp4');
      await renderOnFleet({ queue: queueSettings({ url: tls.url, env }), store, projectDir: project.dir, output, pollMs: 500 });
      expect(await frameIndexes(output)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    } finally {
      await stopWorkers(workers.splice(-1));
      await tls.stop();
    }
  }, 300_000);
});
