import path from 'node:path';
import type { CliContext } from '../cli-context.js';
import { invalidArgument } from '../usage-error.js';
import { loadFleet } from './fleet-client.js';

/** The `seekframe serve` flags the fleet's render API takes. */
export interface ServeQueueFlags {
  port?: string;
  host?: string;
  queue?: string;
  queueName?: string;
  store?: string;
  composition?: string;
  chunkFrames?: string;
  outputs?: string;
  maxConcurrentRenders?: string;
}

/**
 * `seekframe serve --queue redis://… --composition <dir>`: the render API of the deploy
 * templates (preview, POST /api/render, statuses, cancel, webhooks; RENDER_API_TOKEN,
 * RENDER_MAX_*, RENDER_WEBHOOK_* from the environment) whose renders run on the fleet.
 */
export async function serveOnQueue(flags: ServeQueueFlags, ctx: CliContext): Promise<void> {
  if (!flags.composition)
    throw invalidArgument('--composition', 'serve --queue needs --composition <dir>: the composition its render API previews and renders.');
  const fleet = await loadFleet('seekframe serve --queue');
  const queue = fleet.queueSettings({ url: flags.queue!, ...(flags.queueName ? { queueName: flags.queueName } : {}), env: ctx.env });
  const store = fleet.fleetStore({ ...(flags.store !== undefined ? { store: flags.store } : {}), env: ctx.env, cwd: ctx.cwd });
  const host = flags.host ?? '127.0.0.1';
  const { isLoopbackAddress } = await import('@seekframe/producer');
  // Anyone who can post to this API can make the fleet render HTML: never open by accident.
  if (host !== 'localhost' && !isLoopbackAddress(host.replace(/^\[(.*)\]$/, '$1')) && !ctx.env.RENDER_API_TOKEN)
    throw invalidArgument(
      '--host',
      `serve --queue on ${host} needs RENDER_API_TOKEN (clients then send "Authorization: Bearer <token>"), or keep the default host 127.0.0.1.`,
    );
  const port = Number(flags.port ?? ctx.env.PORT ?? 9847);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw invalidArgument('--port', `--port must be 0-65535, got "${flags.port}".`);
  const chunkFrames = flags.chunkFrames === undefined ? undefined : Number(flags.chunkFrames);
  if (chunkFrames !== undefined && (!Number.isInteger(chunkFrames) || chunkFrames < 1))
    throw invalidArgument('--chunk-frames', `--chunk-frames must be a whole number of frames (at least 1), got "${flags.chunkFrames}".`);
  if (queue.warning) ctx.note(`${ctx.colors.yellow('warning')} ${queue.warning}`);
  await fleet.probeQueue(queue, 30_000);
  const api = await fleet.serveFleetApi({
    compositionDir: path.resolve(ctx.cwd, flags.composition),
    queue,
    store: store.store,
    port,
    host,
    env: ctx.env,
    ...(flags.outputs !== undefined ? { dataDir: path.resolve(ctx.cwd, flags.outputs) } : {}),
    ...(chunkFrames !== undefined ? { chunkFrames } : {}),
  });
  ctx.print(
    `${ctx.colors.green('serving')} ${api.url} (render API, renders on queue "${queue.queueName}" at ${queue.display}, store ${store.display})`,
  );
  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      ctx.note(`${signal}: shutting down (cancelling running fleet renders)`);
      void api.close().then(resolve, resolve);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  ctx.note('stopped');
}
