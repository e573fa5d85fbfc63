import type { Command } from 'commander';
import { SERVER_SETTINGS, serverSettingHelp } from '@seekframe/producer/server-settings';
import type { CliContext } from '../cli-context.js';
import { addLimitOptions, limitFlagName, limitValues, type LimitFlags } from './limit-flags.js';

/** Flags as commander names them (`--max-concurrent-renders` -> maxConcurrentRenders); the server's from SERVER_SETTINGS. */
type ServeFlags = LimitFlags &
  Record<string, string | undefined> & {
    queue?: string;
    queueName?: string;
    store?: string;
    composition?: string;
    chunkFrames?: string;
  };

/** `--max-concurrent-renders <n>` -> `maxConcurrentRenders`, as commander keys a flag's value. */
function flagKey(flag: string): string {
  return flag
    .split(' ')[0]!
    .replace(/^--/, '')
    .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

const SERVE_FLAGS = SERVER_SETTINGS.filter((setting) => setting.flag !== undefined);

/** A server field -> what the user typed for it (its flag, or the variable for the token), for errors. */
function fieldName(field: string): string {
  const setting = SERVER_SETTINGS.find((candidate) => candidate.option === field);
  return limitFlagName(field) ?? setting?.flag?.split(' ')[0] ?? setting?.env ?? field;
}

export function register(program: Command, ctx: CliContext): void {
  const command = program
    .command('serve')
    .description('run the producer HTTP server: a FIFO render queue with SSE progress (POST /render/stream)');
  // The server's own settings and the render limits, from the tables the server reads them by.
  for (const setting of SERVE_FLAGS) command.option(setting.flag!, serverSettingHelp(setting));
  addLimitOptions(command, 'serve');
  command
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
      const given = Object.fromEntries(
        SERVE_FLAGS.flatMap((setting) => {
          const value = flags[flagKey(setting.flag!)];
          if (value === undefined) return [];
          // Folders are relative to where the command runs.
          return [[setting.option, setting.option === 'outputsDir' ? path.resolve(ctx.cwd, value) : value]];
        }),
      );
      const options = {
        ...given,
        port: flags.port ?? ctx.env.PORT ?? 9847,
        root: path.resolve(ctx.cwd, flags.root ?? '.'),
        limits: limitValues(flags),
        env: ctx.env,
      };
      // Checked first with flag names in the messages; createProducerServer checks the same rules.
      resolveServerConfig(options, fieldName);
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
