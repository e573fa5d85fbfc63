import os from 'node:os';
import type { Command } from 'commander';
import type { CliContext } from '../cli-context.js';
import { invalidArgument } from '../usage-error.js';
import { addLimitOptions, limitFlagName, limitValues, type LimitFlags } from './limit-flags.js';
import { loadFleet } from './fleet-client.js';

interface WorkerFlags extends LimitFlags {
  queue?: string;
  queueName?: string;
  store?: string;
  concurrency?: string;
  warmBrowsers?: string;
  browserIdleSeconds?: string;
  lockDurationMs?: string;
  stalledIntervalMs?: string;
  shutdownGraceSeconds?: string;
  queueOutageSeconds?: string;
}

/** `seekframe worker`: a long-running render worker of a fleet on Redis (BullMQ). */
export function register(program: Command, ctx: CliContext): void {
  const command = program
    .command('worker')
    .description('render chunks of fleet renders from a Redis queue (see "Render on your own machines" in the manual)')
    .option('--queue <url>', 'the queue: redis://host:6379 or rediss://… for TLS (default REDIS_URL; the password from REDIS_PASSWORD)')
    .option('--queue-name <name>', 'the BullMQ queue (default SEEKFRAME_QUEUE_NAME or "seekframe")')
    .option('--store <dir|s3://bucket>', 'where segments go: a folder every machine mounts, or s3://bucket (default SEEKFRAME_FLEET_STORE)')
    .option('--concurrency <n>', 'chunks rendered at once, 1-32, one browser each (default SEEKFRAME_WORKER_CONCURRENCY or 1)');
  // The limits of `serve` (a chunk is one browser, so no --max-workers), the same flags and variables.
  addLimitOptions(command, 'worker', ['maxFrames', 'maxRenderSeconds', 'maxPixels', 'maxMemoryMB']);
  command
    .option('--warm-browsers <n>', 'browsers kept open between chunks, 0-32 (default: --concurrency)')
    .option('--browser-idle-seconds <s>', 'close a warm browser after this long unused (default 300)')
    .option('--lock-duration-ms <ms>', 'how long a lost worker holds its chunk before another takes it (default 30000)')
    .option('--stalled-interval-ms <ms>', 'how often workers look for chunks of lost workers (default 30000)')
    .option('--shutdown-grace-seconds <s>', 'on SIGTERM, finish running chunks for this long, then hand them back (default 25)')
    .option('--queue-outage-seconds <s>', 'at start, wait this long for Redis to answer (default 120)')
    .action(async (flags: WorkerFlags) => {
      const fleet = await loadFleet('seekframe worker');
      const { resolveHostLimits } = await import('@seekframe/producer');
      const queue = fleet.queueSettings({
        ...(flags.queue !== undefined ? { url: flags.queue } : {}),
        ...(flags.queueName ? { queueName: flags.queueName } : {}),
        env: ctx.env,
      });
      const store = fleet.fleetStore({ ...(flags.store !== undefined ? { store: flags.store } : {}), env: ctx.env, cwd: ctx.cwd });
      const limits = resolveHostLimits(limitValues(flags), ctx.env, (field) => limitFlagName(field) ?? field, 'The worker');
      const concurrency = count(flags.concurrency ?? ctx.env.SEEKFRAME_WORKER_CONCURRENCY, '--concurrency', 1, 32) ?? 1;
      const warmBrowsers = count(flags.warmBrowsers, '--warm-browsers', 0, 32);
      const browserIdleSeconds = count(flags.browserIdleSeconds, '--browser-idle-seconds', 1, 86_400);
      const lockDurationMs = count(flags.lockDurationMs, '--lock-duration-ms', 1_000, 3_600_000);
      const stalledIntervalMs = count(flags.stalledIntervalMs, '--stalled-interval-ms', 500, 3_600_000);
      const graceSeconds = count(flags.shutdownGraceSeconds, '--shutdown-grace-seconds', 0, 3_600) ?? 25;
      const outageSeconds = count(flags.queueOutageSeconds, '--queue-outage-seconds', 1, 86_400) ?? 120;
      if (queue.warning) ctx.note(`${ctx.colors.yellow('warning')} ${queue.warning}`);
      await fleet.probeQueue(queue, outageSeconds * 1000);
      const worker = await fleet.startFleetWorker({
        queue,
        store: store.store,
        concurrency,
        limits: limits as Record<string, number>,
        ...(warmBrowsers !== undefined ? { warmBrowsers } : {}),
        ...(browserIdleSeconds !== undefined ? { browserIdleSeconds } : {}),
        ...(lockDurationMs !== undefined ? { lockDurationMs } : {}),
        ...(stalledIntervalMs !== undefined ? { stalledIntervalMs } : {}),
        onLog: (line) => ctx.print(`${new Date().toISOString()} ${line}`),
      });
      await worker.ready();
      ctx.print(
        `${ctx.colors.green('worker')} ${worker.id} on ${queue.display} queue "${queue.queueName}" (${concurrency} at once on ${os.cpus().length} cores, store ${store.display})`,
      );
      // SIGTERM/SIGINT (a container stop, Ctrl-C): take no more chunks, let the running ones
      // finish for the grace period, then hand them back to the queue and exit 0.
      await new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals): void => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          ctx.note(`${signal}: finishing running chunks (up to ${graceSeconds} s), then handing back the rest`);
          void worker.close(graceSeconds * 1000).then(resolve, resolve);
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
      ctx.note('stopped');
    });
}

function count(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw invalidArgument(flag, `${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  return n;
}
