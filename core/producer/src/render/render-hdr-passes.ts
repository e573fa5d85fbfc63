import path from 'node:path';
import {
  extractHdrLayers,
  headroomPeak,
  mergeHdrLayers,
  probeHdrMetadata,
  type EncodeResult,
  type HdrMetadata,
  type HdrOutput,
} from '@seekframe/engine';
import type { VideoFrameMap } from '@seekframe/runtime';
import { captureAndEncode, type CaptureAndEncodeOptions } from './capture-and-encode.js';
import type { HdrSource } from './open-media-page.js';

export interface HdrPassesOptions {
  /** The render as it would run in one pass (its encoder settings name the final mp4). */
  job: CaptureAndEncodeOptions;
  sources: HdrSource[];
  hdr: HdrOutput;
  workDir: string;
  readMetadata?: (input: string) => Promise<HdrMetadata>;
  /** The render context's ffmpeg and ffprobe (default: SEEKFRAME_FFMPEG/PATH). */
  ffmpeg?: { ffmpeg: string; ffprobe: string };
}

/**
 * HDR output whose <video> highlights survive the SDR browser: the page is captured twice with
 * different frames for the HDR clips (S, then S - h; engine hdr-layers.ts explains the maths), as
 * lossless PNG, and ffmpeg rebuilds the HDR picture from the difference. Twice the capture work;
 * used only when an mp4 is HDR and has HDR clips. Effects that are not affine in pixel values
 * over a clip (e.g. a non-linear colour grade) make its highlights approximate.
 */
export async function renderHdrPasses(options: HdrPassesOptions): Promise<EncodeResult> {
  const { job } = options;
  // The media stage's page and early workers capture JPEG: close them, both passes need PNG.
  await Promise.all((job.adoptWorkers ?? []).map((worker) => ('cancel' in worker ? worker.cancel() : worker.close())));

  const tools = options.ffmpeg;
  const read = options.readMetadata ?? ((input: string) => probeHdrMetadata(input, tools ? { ffprobe: tools.ffprobe } : {}));
  const peak = Math.max(...(await Promise.all(options.sources.map(async (s) => headroomPeak(peakNits(await read(s.input)))))));
  const fps = job.fps.num / job.fps.den;
  const mapA: VideoFrameMap = { ...job.videoFrames };
  const mapB: VideoFrameMap = { ...job.videoFrames };
  for (const [n, source] of options.sources.entries()) {
    const layers = await extractHdrLayers(source.input, path.join(options.workDir, `hdr-${n + 1}`), {
      fps: job.fps,
      peak,
      ...(tools ? { ffmpeg: tools.ffmpeg } : {}),
      ...(job.signal ? { signal: job.signal } : {}),
    });
    mapA[source.src] = { urlPattern: job.server.mount(`hdr-${n + 1}-sdr`, layers.sdrDir) + layers.pattern, fps, frameCount: layers.count };
    mapB[source.src] = { urlPattern: job.server.mount(`hdr-${n + 1}-low`, layers.lowDir) + layers.pattern, fps, frameCount: layers.count };
  }

  const half = job.range.end - job.range.start;
  const pass = (name: string, videoFrames: VideoFrameMap, offset: number, last: boolean): Promise<EncodeResult> =>
    captureAndEncode({
      ...job,
      // Full RGB into the layers: PNG frames, or raw BGRA when the plan captures with canvas (never I420).
      page: { ...job.page, canvasPixels: 'bgra' },
      tuning: { ...job.tuning, frameFormat: 'png' },
      transparent: false,
      videoFrames,
      adoptWorkers: [],
      encoder: {
        format: 'png-sequence',
        output: path.join(options.workDir, name),
        width: job.encoder.width,
        height: job.encoder.height,
        fps: job.fps,
      },
      onProgress: (frames, elapsed) => job.onProgress(Math.floor((offset + frames) / 2), elapsed),
      beforeFinish: last ? job.beforeFinish : () => undefined,
      // Pass A clips the HDR clips at white, so it can look flat where the picture is not;
      // pass B (highlights subtracted) stands for the render in the blank check.
      ...(last && job.onBlank ? { onBlank: job.onBlank } : { onBlank: undefined }),
    });
  const a = await pass('pass-a', mapA, 0, false);
  const b = await pass('pass-b', mapB, half, true);
  const merged = await mergeHdrLayers({
    passA: a.output,
    passB: b.output,
    fps: job.fps,
    peak,
    hdr: options.hdr,
    quality: job.encoder.quality ?? 'standard',
    crf: job.encoder.crf,
    videoBitrate: job.encoder.videoBitrate,
    audio: job.encoder.audio,
    output: job.encoder.output,
    threads: job.tuning.encoderThreads,
    ...(tools ? { ffmpeg: tools.ffmpeg } : {}),
    ...(job.signal ? { signal: job.signal } : {}),
  });
  return { format: 'mp4', output: merged.output, size: merged.size, frames: a.frames };
}

/** MaxCLL, else the mastering display's peak (x265 syntax, 1/10000 cd/m²), in cd/m². */
export function peakNits(meta: HdrMetadata): number | undefined {
  const cll = meta.maxCll ? Number(meta.maxCll.split(',')[0]) : NaN;
  if (cll > 0) return cll;
  const mastering = meta.masterDisplay ? /L\((\d+),/.exec(meta.masterDisplay) : null;
  return mastering ? Number(mastering[1]) / 10000 : undefined;
}
