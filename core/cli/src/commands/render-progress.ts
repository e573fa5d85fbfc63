import cliProgress from 'cli-progress';
import type { RenderEvent } from '@seekframe/producer';
import type { CliContext } from '../cli-context.js';

export interface ProgressReporter {
  onEvent(event: RenderEvent): void;
  /** Removes the bar (on success and on failure) so messages after it start on a clean line. */
  stop(): void;
}

/**
 * Three ways to show a render: a live bar on a terminal; plain lines (one per stage and about
 * every 10 %) when stdout is a pipe or a log; nothing with --quiet. Warnings always go to stderr.
 */
export function createProgressReporter(ctx: CliContext, mode: { quiet: boolean; json: boolean }): ProgressReporter {
  if (mode.json) {
    return { onEvent: (event) => ctx.printJsonLine(event), stop: () => undefined };
  }
  const warn = (event: RenderEvent): void => {
    if (event.type === 'warning') ctx.note(`${ctx.colors.yellow('warning')} ${event.message}`);
  };
  if (mode.quiet) return { onEvent: warn, stop: () => undefined };
  if (ctx.stdout.isTTY) return barReporter(ctx, warn);
  let lastDecile = -1;
  return {
    onEvent(event) {
      warn(event);
      if (event.type === 'stage') ctx.print(`${event.stage}...`);
      if (event.type === 'progress') {
        const decile = Math.floor(event.percent / 10);
        if (decile === lastDecile) return;
        lastDecile = decile;
        ctx.print(
          `${event.stage} ${event.framesRendered}/${event.totalFrames} frames (${Math.round(event.percent)}%, ${event.fps.toFixed(1)} fps${event.eta === null ? '' : `, ETA ${formatSeconds(event.eta)}`})`,
        );
      }
    },
    stop: () => undefined,
  };
}

function barReporter(ctx: CliContext, warn: (event: RenderEvent) => void): ProgressReporter {
  const bar = new cliProgress.SingleBar(
    {
      format: '{stage} [{bar}] {value}/{total} frames | {speed} fps | ETA {etaText}',
      stream: ctx.stdout as NodeJS.WritableStream,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  let stage = '';
  const stop = (): void => {
    if (started) bar.stop();
    started = false;
  };
  return {
    onEvent(event) {
      if (event.type === 'warning') {
        // A warning printed under a live bar would be overwritten on the next redraw.
        if (started) bar.stop();
        started = false;
        warn(event);
        return;
      }
      if (event.type === 'stage') {
        stage = event.stage;
        if (started) bar.update({ stage });
        else ctx.print(ctx.colors.dim(`${stage}...`));
        return;
      }
      if (event.type === 'progress') {
        const payload = { stage, speed: event.fps.toFixed(1), etaText: event.eta === null ? '--' : formatSeconds(event.eta) };
        if (!started) {
          bar.start(event.totalFrames, event.framesRendered, payload);
          started = true;
        } else bar.update(event.framesRendered, payload);
        return;
      }
      if (event.type === 'complete' || event.type === 'error') stop();
    },
    stop,
  };
}

function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}
