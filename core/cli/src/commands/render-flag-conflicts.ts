import { formatFromOutput } from '@seekframe/producer';
import { invalidArgument } from '../usage-error.js';
import type { RenderFlags } from './render-flags.js';

/**
 * Flag combinations that can never work, refused as usage errors (exit 2) before anything runs.
 * The producer's schema repeats these rules for the server and library callers, in their field names.
 */
export function checkRenderFlagConflicts(flags: RenderFlags): void {
  if (flags.crf !== undefined && flags.videoBitrate !== undefined) {
    throw invalidArgument(
      '--crf',
      '--crf and --video-bitrate exclude each other: --crf keeps a constant quality, --video-bitrate aims at a bit rate. Give only one.',
    );
  }
  if (flags.hdr && flags.sdr) {
    throw invalidArgument(
      '--hdr',
      '--hdr and --sdr exclude each other: --hdr writes HDR (10-bit HEVC, PQ/HLG), --sdr tone-maps HDR clips to SDR. Give only one.',
    );
  }
  const format = flags.format ?? formatFromOutput(flags.output);
  if (flags.hdr && format !== 'mp4') {
    throw invalidArgument('--hdr', `--hdr applies to mp4 only (10-bit HEVC), not --format ${format}. Render to .mp4, or drop --hdr.`);
  }
  if (flags.docker && flags.batch !== undefined) {
    throw invalidArgument(
      '--docker',
      '--docker renders one composition; it does not take --batch. Run the batch without --docker, or one --docker render per row.',
    );
  }
  if (flags.report !== undefined && (flags.docker || flags.batch !== undefined)) {
    throw invalidArgument(
      '--report',
      `--report writes the report of one local render; it does not take ${flags.docker ? '--docker' : '--batch'}. Render without it (a single render's last --json event carries the same report).`,
    );
  }
  if (flags.docker && flags.captions !== undefined) {
    throw invalidArgument(
      '--docker',
      '--captions is not written from inside the --docker container yet; render with --captions without --docker (the captions file is the same: it comes from the variables, not the pixels).',
    );
  }
  if (flags.docker && flags.browserGpu) {
    throw invalidArgument(
      '--docker',
      '--docker renders with software Chromium (--no-browser-gpu) so every machine paints the same pixels; drop --browser-gpu.',
    );
  }
  if (flags.docker && flags.captureMode !== undefined && flags.captureMode !== 'beginframe' && flags.captureMode !== 'auto') {
    throw invalidArgument(
      '--docker',
      `--docker always captures with beginframe (the image's headless shell supports it); drop --capture-mode ${flags.captureMode}.`,
    );
  }
}
