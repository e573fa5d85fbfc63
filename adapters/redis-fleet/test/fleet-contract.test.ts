import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { checkoutCli, contractSettingsEnv, runRenderApiContract, type ContractSettings } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir } from '@seekframe/render-api/node';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { startWorkers, stopWorkers, type WorkerProcess } from './support/worker-processes.js';

/**
 * `seekframe serve --queue` passes the render API contract every deploy template passes: the
 * same routes, statuses, cancel, limits and webhooks, each render planned by the server and
 * fanned out as 3 chunks over two `seekframe worker` processes (a shared folder as the store).
 */
let redis: RedisServer;
let store: string;
let workers: WorkerProcess[] = [];

beforeAll(async () => {
  [redis, store] = await Promise.all([startRedis(), mkdtemp(path.join(os.tmpdir(), 'seekframe-fleet-store-'))]);
  workers = await startWorkers(2, { queue: redis.url, store });
}, 180_000);
afterAll(async () => {
  await stopWorkers(workers);
  await redis?.stop();
  if (store) await rm(store, { recursive: true, force: true });
}, 120_000);

async function start(settings: ContractSettings): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const cli = checkoutCli();
  const child: ChildProcess = spawn(
    cli.command,
    [
      ...cli.args,
      'serve',
      '--queue',
      redis.url,
      '--store',
      store,
      '--composition',
      contractCompositionDir(),
      '--port',
      '0',
      '--chunk-frames',
      '4',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...contractSettingsEnv(settings) } },
  );
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (data: Buffer): void => {
      output += data.toString();
      const match = /serving (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`seekframe serve --queue exited with ${code}:\n${output}`)));
  });
  return {
    baseUrl,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

runRenderApiContract({
  name: 'seekframe serve --queue (a Redis fleet of two workers)',
  answerMode: 'sync',
  webhooks: true,
  without: { stills: "a fleet render joins its workers' video chunks; a still is one frame on one machine (seekframe still)" },
  start,
});
