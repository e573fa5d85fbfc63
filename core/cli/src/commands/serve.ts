import type { Command } from 'commander';
import { DEFAULT_MEMORY_PER_BROWSER_MB } from '@seekframe/producer/limits';
import type { CliContext } from '../cli-context.js';

interface ServeFlags {
  port?: string;
  host?: string;
  root?: string;
  maxConcurrentRenders?: string;
  maxQueuedRenders?: string;
  jobRetentionSeconds?: string;
  outputs?: string;
  maxFrames?: string;
  maxRenderSeconds?: string;
  maxWorkers?: string;
  maxPixels?: string;
  maxMemory?: string;
  pageTimeoutMs?: string;
  warmBrowsers?: string;
  browserIdleSeconds?: string;
  queue?: string;
  queueName?: string;
  store?: string;
  composition?: string;
  chunkFrames?: string;
}

const FLAG_NAMES: Record<string, string> = {
  port: '--port',
  host: '--host',
  root: '--root',
  maxConcurrentRenders: '--max-concurrent-renders',
  maxQueuedRenders: '--max-queued-renders',
  jobRetentionSeconds: '--job-retention-seconds',
  outputsDir: '--outputs',
  authToken: 'PRODUCER_AUTH_TOKEN',
  'limits.maxFrames': '--max-frames',
  'limits.maxRenderSeconds': '--max-render-seconds',
  'limits.maxWorkers': '--max-workers',
  'limits.maxPixels': '--max-pixels',
  'limits.maxMemoryMB': '--max-memory',
  pageTimeoutMs: '--page-timeout-ms',
  warmBrowsers: '--warm-browsers',
  browserIdleSeconds: '--browser-idle-seconds',
};

export function register(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('run the producer HTTP server: a FIFO render queue with SSE progress (POST /render/stream)')
    .option('--port <port>', 'port to listen on (default PORT or 9847; 0 picks a free one)')
    .option('--host <host>', 'address to bind (default 127.0.0.1; any other needs PRODUCER_AUTH_TOKEN)')
    .option('--root <dir>', 'folder that request projectDir paths are relative to (default: the current folder)')
    .option('--max-concurrent-renders <n>', 'renders at once, 1-10 (default PRODUCER_MAX_CONCURRENT_RENDERS or 2)')
    .option('--max-queued-renders <n>', 'renders waiting at most, 0-10000; one more gets 429 (default PRODUCER_MAX_QUEUED_RENDERS or 100)')
    .option(
      '--job-retention-seconds <s>',
      'how long GET /render/:id answers for a finished render, then 410 (default PRODUCER_JOB_RETENTION_SECONDS or 3600)',
    )
    .option('--outputs <dir>', 'where finished files are kept (default <root>/.seekframe/outputs)')
    .option('--max-frames <n>', 'refuse renders of more frames (default PRODUCER_MAX_FRAMES or 18000)')
    .option('--max-render-seconds <n>', 'cancel a render after this wall time (default PRODUCER_MAX_RENDER_SECONDS or 900)')
    .option('--max-workers <n>', 'refuse requests for more workers; auto is capped (default PRODUCER_MAX_WORKERS or 4)')
    .option('--max-pixels <n>', 'refuse frames of more pixels (default PRODUCER_MAX_PIXELS or 8294400 = 3840x2160)')
    .option(
      '--max-memory <MB>',
      `stop a render whose browsers together hold more memory than this, in MB (default PRODUCER_MAX_MEMORY_MB, else ${DEFAULT_MEMORY_PER_BROWSER_MB} per browser of the render)`,
    )
    .option('--page-timeout-ms <ms>', 'longest wait for a page to load and for one seek (default PRODUCER_PAGE_TIMEOUT_MS or 30000)')
    .option(
      '--warm-browsers <n>',
      'browsers kept open between renders, 0-32; 0 = each render starts its own (default PRODUCER_WARM_BROWSERS or 2 per concurrent render)',
    )
    .option('--browser-idle-seconds <s>', 'close a warm browser after this long unused (default PRODUCER_BROWSER_IDLE_SECONDS or 60)')
    .option('--queue <url>', "serve the render API (what every deploy template serves) and fan each render out over a fleet's Redis queue")
    .option('--composition <dir>', 'with --queue: the composition the render API previews and renders')
    .option('--queue-name <name>', 'with --queue: the BullMQ queue (default SEEKFRAME_QUEUE_NAME or "seekframe")')
    .option('--store <dir|s3://bucket>', 'with --queue: the store the workers share (default SEEKFRAME_FLEET_STORE)')
    .option('--chunk-frames <n>', 'with --queue: frames per chunk (default: one second of video)')
    .action(async (flags: ServeFlags) => {
      if (flags.queue !== undefined) {
        const { serveOnQueue } = await import('./serve-on-queue.js');
        return serveOnQueue(flags, ctx);
      }
      // Loaded on use: the producer pulls in puppeteer-core and hono, which other commands do not need.
      const { createProducerServer, resolveServerConfig } = await import('@seekframe/producer');
      const path = await import('node:path');
      const options = {
        port: flags.port ?? ctx.env.PORT ?? 9847,
        ...(flags.host === undefined ? {} : { host: flags.host }),
        root: path.resolve(ctx.cwd, flags.root ?? '.'),
        ...(flags.maxConcurrentRenders === undefined ? {} : { maxConcurrentRenders: flags.maxConcurrentRenders }),
        ...(flags.maxQueuedRenders === undefined ? {} : { maxQueuedRenders: flags.maxQueuedRenders }),
        ...(flags.jobRetentionSeconds === undefined ? {} : { jobRetentionSeconds: flags.jobRetentionSeconds }),
        ...(flags.outputs === undefined ? {} : { outputsDir: path.resolve(ctx.cwd, flags.outputs) }),
        ...(flags.pageTimeoutMs === undefined ? {} : { pageTimeoutMs: flags.pageTimeoutMs }),
        ...(flags.warmBrowsers === undefined ? {} : { warmBrowsers: flags.warmBrowsers }),
        ...(flags.browserIdleSeconds === undefined ? {} : { browserIdleSeconds: flags.browserIdleSeconds }),
        limits: Object.fromEntries(
          Object.entries({
            maxFrames: flags.maxFrames,
            maxRenderSeconds: flags.maxRenderSeconds,
            maxWorkers: flags.maxWorkers,
            maxPixels: flags.maxPixels,
            maxMemoryMB: flags.maxMemory,
          }).filter(([, value]) => value !== undefined),
        ),
        env: ctx.env,
      };
      // Checked first with flag names in the messages; createProducerServer checks the same rules.
      resolveServerConfig(options, (field) => FLAG_NAMES[field] ?? field);
      const server = await createProducerServer(options);
      const { config } = server;
      ctx.print(
        `${ctx.colors.green('serving')} ${server.url} (root ${config.root}, ${config.maxConcurrentRenders} concurrent render(s), outputs in ${config.outputsDir}, auth ${config.authToken ? 'on' : 'off'})`,
      );

      // SIGTERM/SIGINT: stop accepting, cancel the waiting and the running, remove partial outputs, exit 0.
      await new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals): void => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          const { activeRenders, queuedRenders } = server.status();
          ctx.note(`${signal}: shutting down (cancelling ${queuedRenders} waiting and ${activeRenders} running render(s))`);
          void server.close().then(resolve, resolve);
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
      ctx.note('stopped');
    });
}
