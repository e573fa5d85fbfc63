import { describe, expect, it } from 'vitest';
import { buildEncoderArgs } from './encoder-args.js';
import { type InputFormat, parseEncoderOptions } from './encoder-options.js';

const base = { format: 'mp4', output: '/tmp/t.mp4', width: 64, height: 36, fps: { num: 30, den: 1 } } as const;

/** The `-preset` and `-crf` values the render's ffmpeg gets. */
function x264Of(options: Parameters<typeof parseEncoderOptions>[0]): [string | undefined, string | undefined] {
  const args = buildEncoderArgs(parseEncoderOptions(options), '/tmp/t.mp4');
  const at = (flag: string): string | undefined => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  return [at('-preset'), at('-crf')];
}

describe('x264 settings per quality level and frame format', () => {
  it('raw frames (canvas capture) take the frontier table, images the image table', () => {
    const expected: Record<'draft' | 'standard' | 'high', Record<InputFormat, [string, string]>> = {
      draft: { i420: ['ultrafast', '28'], bgra: ['ultrafast', '28'], jpeg: ['ultrafast', '28'], png: ['ultrafast', '28'] },
      standard: { i420: ['veryfast', '18'], bgra: ['veryfast', '18'], jpeg: ['medium', '18'], png: ['medium', '18'] },
      high: { i420: ['slow', '15'], bgra: ['slow', '15'], jpeg: ['slow', '15'], png: ['slow', '15'] },
    };
    for (const [quality, byFormat] of Object.entries(expected)) {
      for (const [inputFormat, setting] of Object.entries(byFormat)) {
        expect(
          x264Of({ ...base, quality: quality as 'standard', inputFormat: inputFormat as InputFormat }),
          `${quality} ${inputFormat}`,
        ).toEqual(setting);
      }
    }
  });

  it('an explicit --crf or --video-bitrate still wins; segments of a split render follow the same table', () => {
    expect(x264Of({ ...base, quality: 'standard', inputFormat: 'i420', crf: 23 })).toEqual(['veryfast', '23']);
    expect(x264Of({ ...base, quality: 'standard', inputFormat: 'i420', videoBitrate: '4M' })).toEqual(['veryfast', undefined]);
    expect(x264Of({ ...base, quality: 'standard', inputFormat: 'i420', segment: { gop: 30 } })).toEqual(['veryfast', '18']);
    expect(x264Of({ ...base, quality: 'standard', inputFormat: 'jpeg', segment: { gop: 30 } })).toEqual(['medium', '18']);
  });
});
