import path from 'node:path';
import { HLS_PLAYLIST } from '@seekframe/composition';
import type { InputFormat, ResolvedEncoderOptions } from './encoder-options.js';
import { QUALITY_PRESETS, x264Preset } from './encoder-options.js';
import { localFileInput, PIPE_INPUT_PROTOCOLS } from '../system/ffmpeg-inputs.js';
import { hardwareEncoderArgs } from './hardware-encoders.js';
import { hdrFilter, hdrVideoArgs } from './hdr-encoder-args.js';
import { ffmpegPreamble } from '../system/ffmpeg-preamble.js';

/** GIF players mishandle very short frame delays, and GIF timing is in 1/100 s anyway. */
export const GIF_MAX_FPS = 30;

/**
 * The ffmpeg command line for one encode: frames arrive on stdin as a stream of JPEG or PNG
 * images at the exact rational rate; the output goes to `target` (a temp path, renamed later).
 * For png-sequence `target` is a folder.
 */
export function buildEncoderArgs(opts: ResolvedEncoderOptions, target: string): string[] {
  const rate = `${opts.fps.num}/${opts.fps.den}`;
  const hardware =
    opts.format === 'mp4' && opts.hardwareEncoder
      ? hardwareEncoderArgs(opts.hardwareEncoder, {
          quality: opts.quality,
          crf: opts.crf ?? x264Preset(opts.quality, opts.inputFormat).crf,
          videoBitrate: opts.videoBitrate,
        })
      : undefined;
  const args = [
    ...ffmpegPreamble(),
    // One filter thread: by default ffmpeg slices the pixel-format conversion across one thread
    // per core, which then compete with the encoder's own threads. Measured on 2 cores at 1080p:
    // ~3 ms less CPU per frame for every format (x264 ultrafast 20 -> 17 ms) and no slower.
    '-filter_threads',
    '1',
    ...(hardware?.inputArgs ?? []),
    ...PIPE_INPUT_PROTOCOLS,
    ...(opts.inputFormat === 'bgra' || opts.inputFormat === 'i420'
      ? // Raw pixels: every width x height x 4 (or 1.5) bytes is one frame, nothing to decode.
        [
          '-f',
          'rawvideo',
          '-pix_fmt',
          opts.inputFormat === 'bgra' ? 'bgra' : 'yuv420p',
          ...(opts.inputFormat === 'i420' ? ['-color_range', 'tv', '-colorspace', 'bt709'] : []),
          '-video_size',
          `${opts.width}x${opts.height}`,
          '-framerate',
          rate,
        ]
      : // image2pipe splits the byte stream into images with the given decoder's parser.
        ['-f', 'image2pipe', '-framerate', rate, '-c:v', opts.inputFormat === 'jpeg' ? 'mjpeg' : 'png']),
    '-i',
    'pipe:0',
  ];
  if (opts.audio) args.push(...localFileInput(opts.audio));
  const threads = opts.threads !== undefined ? ['-threads', String(opts.threads)] : [];
  const preset = QUALITY_PRESETS[opts.quality];
  const x264 = x264Preset(opts.quality, opts.inputFormat);

  // The mixed soundtrack is already AAC (Opus for webm): copy it rather than encode it twice.
  const audioCodec = (encode: string[]): string[] => (opts.audio ? (opts.audioCopy ? ['-c:a', 'copy'] : encode) : []);

  switch (opts.format) {
    case 'mp4':
      if (opts.segment) {
        args.push(
          '-map',
          '0:v',
          '-vf',
          [...toBt709(opts.inputFormat), 'format=yuv420p'].join(','),
          ...segmentH264Args(opts, opts.segment.gop),
          ...threads,
          '-f',
          'mp4',
          target,
        );
        return args;
      }
      args.push(
        '-map',
        '0:v',
        ...(opts.audio ? ['-map', '1:a'] : []),
        ...(opts.hdr
          ? // --hdr: 10-bit HEVC, PQ or HLG, BT.2020 (hdr-encoder-args.ts).
            [
              '-vf',
              hdrFilter(opts.inputFormat, opts.hdr.transfer),
              ...hdrVideoArgs(opts.hdr, { preset: preset.x264Preset, crf: opts.crf ?? preset.x264Crf, videoBitrate: opts.videoBitrate }),
            ]
          : [
              // Convert to BT.709 limited range and tag it, so players show the CSS colours.
              '-vf',
              [...toBt709(opts.inputFormat), ...(hardware?.filters ?? ['format=yuv420p'])].join(','),
              ...(hardware
                ? hardware.args
                : [
                    '-c:v',
                    'libx264',
                    '-preset',
                    x264.preset,
                    ...(opts.videoBitrate ? ['-b:v', opts.videoBitrate] : ['-crf', String(opts.crf ?? x264.crf)]),
                  ]),
              ...BT709_TAGS,
            ]),
        ...threads,
        ...audioCodec(['-c:a', 'aac', '-b:a', '192k']),
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
        target,
      );
      return args;
    case 'mov':
      args.push(
        '-map',
        '0:v',
        ...(opts.audio ? ['-map', '1:a'] : []),
        '-c:v',
        'prores_ks',
        '-profile:v',
        '4444',
        '-pix_fmt',
        'yuva444p10le',
        '-alpha_bits',
        '16',
        '-vendor',
        'apl0',
        ...threads,
        ...(opts.audio ? ['-c:a', 'pcm_s16le'] : []),
        '-f',
        'mov',
        target,
      );
      return args;
    case 'webm':
      args.push(
        '-map',
        '0:v',
        ...(opts.audio ? ['-map', '1:a'] : []),
        '-c:v',
        'libvpx-vp9',
        '-pix_fmt',
        'yuva420p',
        ...(opts.videoBitrate ? ['-b:v', opts.videoBitrate] : ['-crf', String(opts.crf ?? preset.vp9Crf), '-b:v', '0']),
        '-deadline',
        preset.vp9Deadline,
        '-cpu-used',
        String(preset.vp9CpuUsed),
        '-row-mt',
        '1',
        // Without this tag players ignore the alpha plane that libvpx writes beside the video.
        '-metadata:s:v:0',
        'alpha_mode=1',
        ...threads,
        ...audioCodec(['-c:a', 'libopus', '-b:a', '128k']),
        '-f',
        'webm',
        target,
      );
      return args;
    case 'gif': {
      const fps = opts.fps.num / opts.fps.den > GIF_MAX_FPS ? `fps=${GIF_MAX_FPS},` : '';
      // Both palette passes in one graph: palettegen sees every frame, then paletteuse maps them.
      args.push(
        '-filter_complex',
        `[0:v]${fps}split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=sierra2_4a`,
        '-loop',
        String(opts.gifLoop ?? 0),
        ...threads,
        '-f',
        'gif',
        target,
      );
      return args;
    }
    case 'hls':
      args.push(
        '-map',
        '0:v',
        ...(opts.audio ? ['-map', '1:a'] : []),
        '-vf',
        [...toBt709(opts.inputFormat), 'format=yuv420p'].join(','),
        ...hlsH264Args(opts, opts.hlsSegmentFrames!),
        ...threads,
        ...audioCodec(['-c:a', 'aac', '-b:a', '192k']),
        ...hlsMuxerArgs(opts.fps, opts.hlsSegmentFrames!, target),
      );
      return args;
    case 'png-sequence':
      args.push(
        '-map',
        '0:v',
        '-c:v',
        'png',
        '-pix_fmt',
        'rgba',
        '-start_number',
        String(opts.startNumber ?? 1),
        ...threads,
        '-f',
        'image2',
        `${target}/frame_%06d.png`,
        ...(opts.audio ? ['-map', '1:a', ...audioCodec(['-c:a', 'aac', '-b:a', '192k']), '-f', 'adts', `${target}/audio.aac`] : []),
      );
      return args;
  }
}

/**
 * H.264 for one piece of a split render, made to be joined with `-f concat -c copy`: a keyframe
 * on its first frame and every `gop` frames (scene cuts never move it), closed GOPs, no B-frames
 * (so decode order is display order and no frame of one piece refers to another), SPS/PPS
 * repeated before every keyframe. Timestamps come from the image2pipe input: 0, 1, 2... at
 * 1/fps, with the track's time base the frame rate's numerator so every step is exact.
 */
export function segmentH264Args(
  opts: Pick<ResolvedEncoderOptions, 'quality' | 'crf' | 'videoBitrate' | 'fps'> & { inputFormat?: InputFormat },
  gop: number,
): string[] {
  const x264 = x264Preset(opts.quality, opts.inputFormat);
  return [
    '-c:v',
    'libx264',
    '-preset',
    x264.preset,
    ...(opts.videoBitrate ? ['-b:v', opts.videoBitrate] : ['-crf', String(opts.crf ?? x264.crf)]),
    '-g',
    String(gop),
    '-keyint_min',
    String(gop),
    '-sc_threshold',
    '0',
    '-bf',
    '0',
    '-x264-params',
    'scenecut=0:open-gop=0:repeat-headers=1',
    ...BT709_TAGS,
    '-video_track_timescale',
    String(opts.fps.num),
  ];
}

/** Tags BT.709 limited range, what toBt709 converts to, so players show the CSS colours. */
const BT709_TAGS = ['-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', '-color_range', 'tv'];

/**
 * H.264 for HLS: an IDR every `frames` frames and nowhere else (scene cuts never add one),
 * closed GOPs, so every segment starts on a keyframe a player can tune in at.
 */
function hlsH264Args(opts: Pick<ResolvedEncoderOptions, 'quality' | 'crf' | 'videoBitrate' | 'inputFormat'>, frames: number): string[] {
  const x264 = x264Preset(opts.quality, opts.inputFormat);
  return [
    '-c:v',
    'libx264',
    '-preset',
    x264.preset,
    ...(opts.videoBitrate ? ['-b:v', opts.videoBitrate] : ['-crf', String(opts.crf ?? x264.crf)]),
    '-g',
    String(frames),
    '-keyint_min',
    String(frames),
    '-sc_threshold',
    '0',
    '-x264-params',
    'scenecut=0:open-gop=0',
    ...BT709_TAGS,
  ];
}

/**
 * The HLS muxer writing a VOD playlist and MPEG-TS segments into `folder`. ffmpeg cuts at the
 * first keyframe at or after each multiple of -hls_time; asking for half a frame less than the
 * segment's length makes that cut land exactly on the keyframe that starts the next segment,
 * whatever the rounding of a rate like 30000/1001.
 */
function hlsMuxerArgs(fps: { num: number; den: number }, frames: number, folder: string): string[] {
  const seconds = ((frames - 0.5) * fps.den) / fps.num;
  return [
    '-f',
    'hls',
    '-hls_time',
    seconds.toFixed(6),
    '-hls_playlist_type',
    'vod',
    '-hls_list_size',
    '0',
    '-hls_segment_type',
    'mpegts',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    path.join(folder, 'segment_%05d.ts'),
    path.join(folder, HLS_PLAYLIST),
  ];
}

/**
 * The filter that turns captured frames into BT.709 limited-range YUV. JPEG frames already are
 * YCbCr, with the BT.601 matrix at full range: the colorspace filter only swaps the matrix and
 * the range (fast=1 leaves primaries and transfer alone, which are sRGB/BT.709 on both sides).
 * Measured at 1080p on 2 cores: ~0.6 ms per frame where swscale's generic route took ~4 ms, all
 * of it serial in ffmpeg's main thread, and closer to the page's colours (#7c5cff comes back
 * as 124,90,253 against 122,88,251). PNG and raw BGRA frames are RGB, which swscale converts directly.
 */
function toBt709(inputFormat: InputFormat): string[] {
  if (inputFormat === 'i420') return []; // converted in the page already (bgra-to-i420.wat)
  return inputFormat === 'jpeg'
    ? ['colorspace=ispace=bt470bg:iprimaries=bt709:itrc=bt709:irange=pc:space=bt709:primaries=bt709:trc=bt709:range=tv:fast=1']
    : ['scale=out_color_matrix=bt709:out_range=tv'];
}
