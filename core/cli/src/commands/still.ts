import type { Command } from 'commander';
import { SCALE_MAX, SCALE_MIN } from '@seekframe/composition';
import type { CliContext } from '../cli-context.js';
import { displayPath } from '@seekframe/producer/project-files';
import { formatBytes } from '../doctor/check-result.js';
import { EXIT_FAILURE } from '../report-error.js';
import type { StillFlags } from './still-flags.js';
import { createProgressReporter } from './render-progress.js';
import { cleanUpOnForcedStop, unlessStopped } from './render-stops.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('still')
    .description('write frames of a composition as PNG files, each exactly that frame of a png-sequence render')
    .argument('[dir]', 'project folder (uses its index.html) or HTML file', '.')
    .option('--time <t>', 'the frame on screen at this time: 1.5s, 1500ms or 1.5 (seconds)')
    .option('--frame <n>', 'this composition frame (0 is the first), at the render fps')
    .option('--times <list>', 'several times, comma-separated: 0,1.5s,3 (files numbered by frame, see -o)')
    .option('--frames <list>', 'several frames, comma-separated: 0,45,90')
    .option(
      '-o, --output <file.png>',
      'the PNG (default renders/<name>.png); several stills go beside it as <name>-<frame>.png, the frame zero-padded',
    )
    .option('--fps <rate>', 'frame numbering (and times) at this rate: 1-240 or 30000/1001 (default: data-fps or 30)')
    .option('--scale <n>', `device scale factor, ${SCALE_MIN}-${SCALE_MAX} (default 1): the PNG is width x n by height x n`)
    .option('--variables <json>', 'JSON object of composition variables, e.g. \'{"title":"Hi"}\'')
    .option('--variables-file <path>', 'JSON file with composition variables; excludes --variables')
    .option('--strict-variables', 'undeclared or mistyped variables are errors, not warnings')
    .option('--strict', 'a sub-composition with nothing to show or an iframe whose clock cannot follow is an error')
    .option('--capture-mode <mode>', 'auto, beginframe or screenshot (auto: beginframe when the browser supports it)')
    .option('--browser-gpu', 'let Chromium use the GPU')
    .option('--network <mode>', 'open (default) or sandboxed: the page reaches only its own project and public http(s) assets')
    .option('--max-frames <n>', 'refuse more stills than this')
    .option('--max-render-seconds <n>', 'cancel after this many seconds of wall time (render-timeout)')
    .option('--max-pixels <n>', 'refuse a PNG larger than this many pixels (width x height)')
    .option('--max-memory <MB>', 'stop when the browser holds more memory than this, in MB (memory-limit-exceeded)')
    .option('-q, --quiet', 'print nothing but the paths of the PNGs')
    .option('--json', 'print every progress event as one JSON line; the last, complete, lists the stills')
    .action(async (dir: string, flags: StillFlags) => {
      const { stillAtFromFlags, stillFlagsToOptions, stillFlagName } = await import('./still-flags.js');
      const at = stillAtFromFlags(flags);
      const { parseStillOptions, renderStills } = await unlessStopped(import('@seekframe/producer'), ctx.stops.signal);
      const options = parseStillOptions(await stillFlagsToOptions(dir, flags, at, ctx.cwd), stillFlagName);
      const progress = createProgressReporter(ctx, { quiet: Boolean(flags.quiet), json: Boolean(flags.json) });
      await cleanUpOnForcedStop(ctx, Boolean(flags.json));
      try {
        const result = await renderStills({ ...options, signal: ctx.stops.signal }, (event) => progress.onEvent(event)).catch(
          (error: unknown) => {
            // --json: the error already went out as the last event line; keep stdout pure JSON lines.
            if (!flags.json) throw error;
            ctx.exitCode = EXIT_FAILURE;
            return null;
          },
        );
        progress.stop();
        if (!result || flags.json) return;
        const files = [...new Map(result.stills.map((still) => [still.output, still])).values()];
        for (const still of files) {
          const shown = displayPath(ctx.cwd, still.output);
          if (flags.quiet) ctx.print(shown);
          else
            ctx.print(
              `${ctx.colors.green('still')} ${shown} (frame ${still.frame} at ${still.time.toFixed(3)} s, ${formatBytes(still.size)})`,
            );
        }
      } finally {
        progress.stop();
      }
    });
}
