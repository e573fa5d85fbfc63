import { type ChildProcess, spawn } from 'node:child_process';
import { checkoutCli } from '@seekframe/render-api/contract-suite';

export interface WorkerProcess {
  pid: number;
  /** As the worker names itself in job progress and results (`<host>:<pid>:<random>`), read from its first line. */
  id: string;
  log(): string;
  /** Resolves when the worker's output matches (a job taken, a cancel seen); rejects after `ms`. */
  waitForLog(pattern: RegExp, ms?: number): Promise<void>;
  /**
   * SIGKILL: the worker's whole process group (the worker, its browsers, its ffmpeg), as a lost
   * machine. Any other signal: the worker process alone, as `docker stop` (tini) or Kubernetes sends it.
   */
  kill(signal: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

/**
 * Real `seekframe worker` processes of this checkout (the CLI from its sources), each the leader
 * of its own process group, so `kill('SIGKILL')` takes its Chromium and ffmpeg with it the way a
 * lost machine does. Resolves once each says it is listening.
 */
export async function startWorkers(
  count: number,
  options: { queue: string; store: string; args?: string[]; env?: NodeJS.ProcessEnv },
): Promise<WorkerProcess[]> {
  return Promise.all(Array.from({ length: count }, () => startWorker(options)));
}

export async function startWorker(options: {
  queue: string;
  store: string;
  args?: string[];
  env?: NodeJS.ProcessEnv;
}): Promise<WorkerProcess> {
  const cli = checkoutCli();
  const child: ChildProcess = spawn(
    cli.command,
    [...cli.args, 'worker', '--queue', options.queue, '--store', options.store, ...(options.args ?? [])],
    { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...options.env } },
  );
  let output = '';
  const waiters = new Set<() => void>();
  const append = (data: Buffer): void => {
    output += data.toString();
    for (const check of waiters) check();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitForLog = (pattern: RegExp, ms = 120_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (!pattern.test(output)) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`worker ${child.pid} did not print ${pattern} within ${ms} ms; its output:\n${output}`));
      }, ms);
      waiters.add(check);
      check();
    });
  const worker: WorkerProcess = {
    pid: child.pid!,
    id: '',
    log: () => output,
    waitForLog,
    kill(signal) {
      try {
        process.kill(signal === 'SIGKILL' ? -child.pid! : child.pid!, signal);
      } catch {
        // already gone
      }
    },
    exited,
  };
  await Promise.race([
    waitForLog(/^worker \S+ on /m),
    exited.then((code) => Promise.reject(new Error(`worker exited with ${code} before it was ready:\n${output}`))),
  ]);
  worker.id = /^worker (\S+) on /m.exec(output)![1]!;
  return worker;
}

/** Stops workers as a test's cleanup: SIGTERM, then SIGKILL for any still there after `ms`. */
export async function stopWorkers(workers: WorkerProcess[], ms = 30_000): Promise<void> {
  await Promise.all(
    workers.map(async (worker) => {
      worker.kill('SIGTERM');
      const timer = setTimeout(() => worker.kill('SIGKILL'), ms);
      await worker.exited;
      clearTimeout(timer);
      // Browsers of a worker that exited on its own are gone with it; a group kill makes sure.
      worker.kill('SIGKILL');
    }),
  );
}
