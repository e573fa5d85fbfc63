import { describe, expect, it } from 'vitest';
import { buildEncoderArgs } from './encoder-args.js';
import { parseEncoderOptions } from './encoder-options.js';
import { hdrFilter, hdrVideoArgs } from './hdr-encoder-args.js';
import { hdrMetadataFromSideData } from '../media/probe-hdr-metadata.js';
import { hdrTransfer } from './hdr-transfer.js';

describe('HDR encoding arguments', () => {
  it('converts the page to BT.2020 PQ/HLG with SDR white at 203 cd/m²', () => {
    expect(hdrFilter('png', 'pq')).toBe(
      'zscale=tin=iec61966-2-1:pin=709:t=smpte2084:p=2020:m=2020_ncl:r=limited:npl=203,format=yuv420p10le',
    );
    expect(hdrFilter('jpeg', 'hlg')).toBe(
      'zscale=tin=iec61966-2-1:pin=709:min=470bg:rin=full:t=arib-std-b67:p=2020:m=2020_ncl:r=limited:npl=203,format=yuv420p10le',
    );
  });

  it('writes HEVC Main10 with colour tags in the bitstream and the container, and the mastering metadata when known', () => {
    expect(
      hdrVideoArgs(
        { transfer: 'pq', masterDisplay: 'G(1,2)B(3,4)R(5,6)WP(7,8)L(9,10)', maxCll: '1000,400' },
        { preset: 'medium', crf: 18 },
      ),
    ).toEqual([
      '-c:v',
      'libx265',
      '-preset',
      'medium',
      '-profile:v',
      'main10',
      '-pix_fmt',
      'yuv420p10le',
      '-crf',
      '18',
      '-x265-params',
      'log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc:range=limited:master-display=G(1,2)B(3,4)R(5,6)WP(7,8)L(9,10):max-cll=1000,400',
      '-tag:v',
      'hvc1',
      '-colorspace',
      'bt2020nc',
      '-color_primaries',
      'bt2020',
      '-color_trc',
      'smpte2084',
      '-color_range',
      'tv',
    ]);
    const hlg = hdrVideoArgs({ transfer: 'hlg' }, { preset: 'ultrafast', crf: 28, videoBitrate: '8M' });
    expect(hlg.join(' ')).toContain(
      '-b:v 8M -x265-params log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc:range=limited -tag:v hvc1',
    );
    expect(hlg).not.toContain('-crf');
  });

  it('replaces the BT.709 H.264 path of mp4 and is refused for other formats or with a hardware encoder', () => {
    const base = { format: 'mp4', output: '/tmp/x.mp4', width: 64, height: 36, fps: { num: 30, den: 1 }, inputFormat: 'png' } as const;
    const args = buildEncoderArgs(parseEncoderOptions({ ...base, hdr: { transfer: 'pq' } }), '/tmp/t.mp4');
    expect(args).not.toContain('libx264');
    expect(args).not.toContain('bt709');
    expect(args[args.indexOf('-vf') + 1]).toBe(hdrFilter('png', 'pq'));
    expect(args.slice(-5)).toEqual(['-movflags', '+faststart', '-f', 'mp4', '/tmp/t.mp4']);
    expect(() => parseEncoderOptions({ ...base, format: 'mov', hdr: { transfer: 'pq' } })).toThrow(/mp4 only/);
    expect(() => parseEncoderOptions({ ...base, hdr: { transfer: 'pq' }, hardwareEncoder: 'h264_nvenc' })).toThrow(/libx265/);
    expect(() => parseEncoderOptions({ ...base, hdr: { transfer: 'pq', maxCll: '1000' } })).toThrow(/hdr\.maxCll/);
  });
});

describe('HDR metadata from ffprobe', () => {
  it('turns mastering display and content light side data into x265 parameters', () => {
    expect(
      hdrMetadataFromSideData([
        {
          side_data_type: 'Mastering display metadata',
          red_x: '34000/50000',
          red_y: '16000/50000',
          green_x: '13250/50000',
          green_y: '34500/50000',
          blue_x: '7500/50000',
          blue_y: '3000/50000',
          white_point_x: '15635/50000',
          white_point_y: '16450/50000',
          min_luminance: '50/10000',
          max_luminance: '10000000/10000',
        },
        { side_data_type: 'Content light level metadata', max_content: 1000, max_average: 400 },
        { side_data_type: 'H.26[45] User Data Unregistered SEI message' },
      ]),
    ).toEqual({ masterDisplay: 'G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)', maxCll: '1000,400' });
    expect(hdrMetadataFromSideData([])).toEqual({});
  });

  it('names PQ and HLG transfers only', () => {
    expect(['smpte2084', 'arib-std-b67', 'bt709', 'unknown', undefined].map(hdrTransfer)).toEqual([
      'pq',
      'hlg',
      undefined,
      undefined,
      undefined,
    ]);
  });
});
