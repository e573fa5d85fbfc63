import path from 'node:path';
import { displayPath } from '@seekframe/producer/project-files';
import type { CliContext } from '../cli-context.js';
import { formatBytes } from '../doctor/check-result.js';
import { invalidArgument } from '../usage-error.js';
import { requestFromFlags } from './distributed-request-flags.js';
import { type FleetEvent, loadFleet } from './fleet-client.js';
import type { RenderFlags } from './render-flags.js';
import { createProgressReporter } from './render-progress.js';

/** The flags a fleet render keeps; every other render flag is refused with the fix. */
const FLEET_FLAGS = new Set([
  'queue',
  'queueName',
  'store',
  'chunkFrames',
  'keepInStore',
  'output',
  'format',
  'fps',
  'frames',
  'quality',
  'variables',
  'variablesFile',
  'strictVariables',
  'network',
  'quiet',
  'json',
  'maxFrames',
  'maxPixels',
]);

/**
 * `seekframe render <dir> --queue redis://…`: plans here, puts the chunks and their assemble
 * step on the queue as one flow, shows progress from every worker, and writes the output here.
 * Ctrl-C or SIGTERM cancels every chunk of the render.
 */
export async function renderOnQueue(dir: string, flags: RenderFlags, ctx: CliContext): Promise<void> {
  refuseLocalOnlyFlags(flags);
  const fleet = await loadFleet('seekframe render --queue');
  const queue = fleet.queueSettings({ url: flags.queue!, ...(flags.queueName ? { queueName: flags.queueName } : {}), env: ctx.env });
  const store = fleet.fleetStore({ ...(flags.store !== undefined ? { store: flags.store } : {}), env: ctx.env, cwd: ctx.cwd });
  const projectDir = path.resolve(ctx.cwd, dir);
  const request = await requestFromFlags(flags, ctx.cwd);
  const chunkFrames = flags.chunkFrames === undefined ? undefined : Number(flags.chunkFrames);
  if (chunkFrames !== undefined && (!Number.isInteger(chunkFrames) || chunkFrames < 1))
    throw invalidArgument('--chunk-frames', `--chunk-frames must be a whole number of frames (at least 1), got "${flags.chunkFrames}".`);
  const output = path.resolve(ctx.cwd, flags.output ?? path.join('renders', `${path.basename(projectDir)}.mp4`));
  const limits = Object.fromEntries(
    Object.entries({ maxFrames: flags.maxFrames, maxPixels: flags.maxPixels })
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => [name, Number(value)]),
  );
  if (queue.warning && !flags.json) ctx.note(`${ctx.colors.yellow('warning')} ${queue.warning}`);
  const progress = createProgressReporter(ctx, { quiet: Boolean(flags.quiet), json: false });
  const started = Date.now();
  const toRenderEvent = fleet.fleetProgressEvents();
  let chunkCount = 0;
  const onEvent = (event: FleetEvent): void => {
    if (flags.json) ctx.printJsonLine(event);
    if (event.type === 'planned') {
      chunkCount = event.chunks;
      if (!flags.json && !flags.quiet)
        ctx.note(`render ${event.renderId}: ${event.totalFrames} frames in ${event.chunks} chunk(s) on queue "${queue.queueName}"`);
    }
    if (event.type === 'chunk-done' && !flags.json && !flags.quiet && !ctx.stdout.isTTY)
      ctx.print(`chunk ${event.chunk + 1}/${chunkCount} done on ${event.worker}${event.reused ? ' (already stored)' : ''}`);
    const shown = toRenderEvent(event);
    if (shown && !flags.json) progress.onEvent(shown);
  };
  try {
    const result = await fleet.renderOnFleet({
      queue,
      store: store.store,
      projectDir,
      output,
      request,
      ...(Object.keys(limits).length ? { limits } : {}),
      ...(chunkFrames !== undefined ? { chunkFrames } : {}),
      ...(flags.keepInStore ? { keepInStore: true } : {}),
      signal: ctx.stops.signal,
      onEvent,
    });
    progress.stop();
    const { stat } = await import('node:fs/promises');
    const size = (await stat(result.output)).size;
    const shown = displayPath(ctx.cwd, result.output);
    if (flags.json)
      ctx.printJsonLine({
        type: 'complete',
        output: result.output,
        size,
        renderId: result.renderId,
        frames: result.frames,
        chunks: result.chunks,
        durationMs: Date.now() - started,
      });
    else if (flags.quiet) ctx.print(shown);
    else
      ctx.print(
        `${ctx.colors.green('rendered')} ${shown} (${formatBytes(size)}, ${result.frames} frames in ${result.chunks} chunk(s), ${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
  } finally {
    progress.stop();
  }
}

function refuseLocalOnlyFlags(flags: RenderFlags): void {
  const given = Object.entries(flags)
    .filter(([name, value]) => value !== undefined && value !== false && !FLEET_FLAGS.has(name))
    .map(([name]) => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  if (given.length)
    throw invalidArgument(
      given[0]!,
      `${given.join(', ')} cannot be used with --queue: a fleet render takes the composition's variables, --format mp4, --fps, --quality and the --max-frames/--max-pixels limits; each worker captures with beginframe in the network sandbox, one browser per chunk. Render on this machine without --queue to use ${given.length === 1 ? 'it' : 'them'}.`,
    );
  if (flags.network !== undefined && flags.network !== 'sandboxed')
    throw invalidArgument(
      '--network',
      '--queue renders always run sandboxed (the workers render whatever the queue carries); drop --network open.',
    );
}
