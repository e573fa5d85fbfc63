import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@seekframe/render-api/contract-suite';

export interface RedisOptions {
  password?: string;
  /** Keep the data across a restart (appendonly yes in the server's folder). */
  persistent?: boolean;
  /** Serve TLS only, on the port (plain port off). */
  tls?: { cert: string; key: string; ca: string };
}

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:<port> (rediss:// with tls); no password in it. */
  url: string;
  dir: string;
  pid(): number | undefined;
  /** Stops the server (SIGTERM: it saves its data when persistent) and starts it again on the same port. */
  restart(options?: { wipe?: boolean; downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Debian's redis-server on 127.0.0.1 and a free port, in a temp folder, for one test file:
 * no mock of Redis or BullMQ anywhere in the fleet's tests.
 */
export async function startRedis(options: RedisOptions = {}): Promise<RedisServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const args = (): string[] => [
    '--bind',
    '127.0.0.1',
    ...(options.tls
      ? ['--port', '0', '--tls-port', String(port), '--tls-cert-file', options.tls.cert, '--tls-key-file', options.tls.key]
      : ['--port', String(port)]),
    ...(options.tls ? ['--tls-ca-cert-file', options.tls.ca, '--tls-auth-clients', 'no'] : []),
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    options.persistent ? 'yes' : 'no',
    ...(options.password ? ['--requirepass', options.password] : []),
    '--protected-mode',
    'no',
  ];
  const launch = async (): Promise<void> => {
    const started = spawn('redis-server', args(), { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (data: Buffer): void => {
        output += data.toString();
        if (output.includes('Ready to accept connections')) resolve();
      };
      started.stdout?.on('data', onData);
      started.stderr?.on('data', onData);
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  };
  const stopChild = async (): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await launch();
  return {
    port,
    url: `${options.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    dir,
    pid: () => child?.pid,
    async restart({ wipe = false, downMs = 500 } = {}) {
      await stopChild();
      if (wipe) {
        await rm(dir, { recursive: true, force: true });
        const { mkdir } = await import('node:fs/promises');
        await mkdir(dir, { recursive: true });
      }
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await launch();
    },
    async stop() {
      await stopChild();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
