import { Option, type Command } from 'commander';
import {
  CRF_MAX,
  GIF_LOOP_MAX,
  HLS_PLAYLIST,
  HLS_SEGMENT_SECONDS_DEFAULT,
  HLS_SEGMENT_SECONDS_MAX,
  HLS_SEGMENT_SECONDS_MIN,
  OUTPUT_FORMATS,
  QUALITIES,
  SCALE_MAX,
  SCALE_MIN,
} from '@seekframe/composition';
import type { CliContext } from '../cli-context.js';
import { displayPath } from '@seekframe/producer/project-files';
import { formatBytes } from '../doctor/check-result.js';
import { EXIT_FAILURE } from '../report-error.js';
import { addLimitOptions } from './limit-flags.js';
import type { RenderFlags } from './render-flags.js';
import { createProgressReporter } from './render-progress.js';
import { cleanUpOnForcedStop, unlessStopped } from './render-stops.js';

export function register(program: Command, ctx: CliContext): void {
  const command = program
    .command('render')
    .description('render a composition to a video file (mp4, mov, webm, gif), an HLS folder or a PNG sequence')
    .argument('[dir]', 'project folder (uses its index.html) or HTML file', '.')
    .option(
      '-o, --output <path>',
      `output file (a folder for png-sequence and hls: ${HLS_PLAYLIST} and its segments); default renders/<name>.<ext>`,
    )
    .addOption(new Option('-f, --format <format>', 'output format').choices([...OUTPUT_FORMATS]))
    .option('--fps <rate>', 'frames per second: 1-240 or a fraction like 30000/1001 (default: data-fps or 30)')
    .option(
      '--frames <first-last>',
      'render only these composition frames, both included, at the render fps (30-59, or 45 for one): output frame k is frame first+k, the sound cut to match',
    )
    .option('--quality <preset>', `${QUALITIES.join(', ')} (default standard)`)
    .option(
      '--crf <n>',
      `constant quality, 0-${CRF_MAX.mp4} for mp4, 0-${CRF_MAX.webm} for webm (lower is better); excludes --video-bitrate`,
    )
    .option('--video-bitrate <rate>', 'target bit rate like 5M, 2500k or 1.5G; excludes --crf')
    .option('--gif-loop <n>', `gif: 0-${GIF_LOOP_MAX}; 0 loops forever (default), N plays N+1 times`)
    .option(
      '--scale <n>',
      `device scale factor, ${SCALE_MIN}-${SCALE_MAX} (default 1): the output is width x n by height x n, text and shapes drawn at that size (2 renders 1080p as 4K)`,
    )
    .option(
      '--hls-segment-seconds <s>',
      `hls: length of each segment, ${HLS_SEGMENT_SECONDS_MIN}-${HLS_SEGMENT_SECONDS_MAX} s, rounded to whole frames (default ${HLS_SEGMENT_SECONDS_DEFAULT})`,
    )
    .option('--captions <file>', "also write the composition's captions variable as an .srt or .vtt file, cue times on frame boundaries")
    .option('--captions-variable <id>', 'the captions variable --captions writes, when the composition declares more than one')
    .option(
      '--video-frame-format <format>',
      'frames extracted from <video> clips: auto (default: png when the source has alpha, else jpg), jpg or png',
    )
    .option('--workers <n>', 'browser processes capturing in parallel: 1-24 or auto (default auto)')
    .option('--browser-gpu', 'let Chromium use the GPU')
    .option('--no-browser-gpu', 'software rendering in Chromium (default)')
    .option('--gpu', 'mp4: encode with a working hardware encoder (NVENC, VAAPI, QSV, VideoToolbox), else libx264 with a warning')
    .option('--hdr', 'mp4: 10-bit HEVC with HDR colour tags (automatic when a <video> clip is HDR); excludes --sdr')
    .option('--sdr', 'tone-map HDR <video> clips and write SDR output; excludes --hdr')
    .option('--docker', 'run this render inside the pinned Docker image (beginframe capture, no browser GPU)')
    .option(
      '--capture-mode <mode>',
      'auto, canvas, beginframe or screenshot (auto: canvas when the browser and the composition allow it, else beginframe when supported)',
    )
    .option('--variables <json>', 'JSON object of composition variables, e.g. \'{"title":"Hi"}\'')
    .option('--variables-file <path>', 'JSON file with composition variables; excludes --variables')
    .option('--strict-variables', 'undeclared or mistyped variables are errors, not warnings')
    .option(
      '--network <mode>',
      'open (default) or sandboxed: the page reaches only its own project and public http(s) assets (for compositions you do not trust)',
    )
    .option(
      '--strict',
      'a sub-composition with nothing to show, an iframe whose clock cannot follow, or a blank video is an error, not a warning',
    );
  addLimitOptions(command, 'render');
  command
    .option('--queue <url>', 'render on a fleet of `seekframe worker` processes through this Redis queue (redis://… or rediss://…)')
    .option('--queue-name <name>', 'with --queue: the BullMQ queue (default SEEKFRAME_QUEUE_NAME or "seekframe")')
    .option('--store <dir|s3://bucket>', 'with --queue: the store the workers share (default SEEKFRAME_FLEET_STORE)')
    .option('--chunk-frames <n>', 'with --queue: frames per chunk (default: one second of video, at most 100 chunks)')
    .option('--keep-in-store', "with --queue: keep the render's files in the store after the output is fetched")
    .option('-q, --quiet', 'print nothing but the output path')
    .option('--json', 'print every progress event as one JSON line')
    .option(
      '--report <file>',
      'write where the time went (stages, slowest frames, slow clips, workers, capture mode) to this JSON file, also when the render fails',
    )
    .option(
      '--batch <file>',
      'rows of variables: JSON (array, or {"rows": [...]}) or a .csv file with a header of variable ids; one render per row, --output is a {key}/{index} template',
    )
    .option('--batch-concurrency <n>', 'rows rendered at once, 1-16 (default 1); --workers auto is split between them')
    .option('--batch-fail-fast', 'start no new row after the first failure (the rest are skipped)')
    .option('--batch-resume', 'keep rows the existing manifest.json lists as completed with the same row and output')
    .action(async (dir: string, flags: RenderFlags) => {
      const { checkRenderFlagConflicts } = await import('./render-flag-conflicts.js');
      checkRenderFlagConflicts(flags);
      if (flags.queue !== undefined) {
        const { renderOnQueue } = await import('./render-on-queue.js');
        return renderOnQueue(dir, flags, ctx);
      }
      if (flags.docker) {
        const { renderInDocker } = await import('../docker/render-in-docker.js');
        return renderInDocker(dir, flags, ctx);
      }
      const { checkBatchFlags, renderBatchCommand } = await unlessStopped(import('./render-batch.js'), ctx.stops.signal);
      if (checkBatchFlags(flags)) return renderBatchCommand(dir, flags, ctx);
      // Loaded on use: the producer pulls in puppeteer-core and hono, which other commands do not need.
      const { parseRenderOptions, renderComposition } = await unlessStopped(import('@seekframe/producer'), ctx.stops.signal);
      const { flagName, renderFlagsToOptions } = await import('./render-flags.js');
      const options = parseRenderOptions(await renderFlagsToOptions(dir, flags, ctx.cwd), flagName);
      const progress = createProgressReporter(ctx, { quiet: Boolean(flags.quiet), json: Boolean(flags.json) });
      await cleanUpOnForcedStop(ctx, Boolean(flags.json));
      try {
        // The benchmark's saved speed settings, read once here and passed in (never read inside a render).
        const { savedRenderTuning } = await import('@seekframe/engine');
        const { withReportFile } = await import('./render-report-file.js');
        // Ctrl-C or SIGTERM, even one received while the CLI was still loading, cancels the render.
        const rendering = withReportFile(flags.report, ctx.cwd, (profile) =>
          renderComposition({ ...options, signal: ctx.stops.signal }, (event) => progress.onEvent(event), {
            tuning: savedRenderTuning(ctx.env),
            ...(profile ? { profile } : {}),
          }),
        );
        const result = await rendering.catch((error: unknown) => {
          // --json: the error already went out as the last event line; keep stdout pure JSON lines.
          if (!flags.json) throw error;
          ctx.exitCode = EXIT_FAILURE;
          return null;
        });
        if (!result) return;
        progress.stop();
        const shown = displayPath(ctx.cwd, result.output);
        if (flags.json) return;
        if (flags.quiet) ctx.print(shown);
        else
          ctx.print(
            `${ctx.colors.green('rendered')} ${shown} (${formatBytes(result.size)}, ${result.frames} frames, ${(result.durationMs / 1000).toFixed(1)} s)`,
          );
        // A length the page decided (a registered timeline, no data-duration) is said, not left to guess.
        if (result.report.length && result.report.length.source !== 'data-duration' && !flags.quiet)
          ctx.print(`${ctx.colors.dim('length')} ${result.report.length.note}`);
        if (result.captions && !flags.quiet)
          ctx.print(
            `${ctx.colors.green('captions')} ${displayPath(ctx.cwd, result.captions.file)} (${result.captions.cues} cue${result.captions.cues === 1 ? '' : 's'} from "${result.captions.variable}")`,
          );
      } finally {
        progress.stop();
      }
    });
}
