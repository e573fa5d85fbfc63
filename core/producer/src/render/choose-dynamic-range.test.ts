import { describe, expect, it } from 'vitest';
import { chooseDynamicRange, type DynamicRangeInput } from './choose-dynamic-range.js';

const pq = { src: 'http://x/a.mp4', input: '/p/a.mp4', transfer: 'pq' as const };
const hlg = { src: 'http://x/b.mp4', input: '/p/b.mp4', transfer: 'hlg' as const };
const base: DynamicRangeInput = {
  format: 'mp4',
  hdr: false,
  sdr: false,
  sources: [],
  zscale: true,
  readMetadata: async (input) => ({ maxCll: input === '/p/a.mp4' ? '1000,400' : '600,100' }),
};

describe('chooseDynamicRange', () => {
  it('SDR without HDR clips or flags', async () => {
    expect(await chooseDynamicRange(base)).toEqual({ keepHardwareEncoder: true, warnings: [] });
  });
  it('an HDR clip makes mp4 HDR; PQ wins over HLG; the metadata comes from that clip', async () => {
    expect((await chooseDynamicRange({ ...base, sources: [hlg, pq] })).hdr).toEqual({ transfer: 'pq', maxCll: '1000,400' });
    expect((await chooseDynamicRange({ ...base, sources: [hlg] })).hdr).toEqual({ transfer: 'hlg', maxCll: '600,100' });
    expect((await chooseDynamicRange({ ...base, hdr: true })).hdr).toEqual({ transfer: 'pq' });
  });
  it('--sdr keeps SDR quietly; other formats say the clip was tone-mapped', async () => {
    expect(await chooseDynamicRange({ ...base, sdr: true, sources: [pq] })).toEqual({ keepHardwareEncoder: true, warnings: [] });
    const gif = await chooseDynamicRange({ ...base, format: 'gif', sources: [pq] });
    expect(gif.hdr).toBeUndefined();
    expect(gif.warnings.map((w) => w.code)).toEqual(['hdr/sdr-output']);
  });
  it('HDR output drops the hardware encoder with a warning', async () => {
    const choice = await chooseDynamicRange({ ...base, sources: [pq], hardwareEncoder: 'h264_nvenc' });
    expect(choice.keepHardwareEncoder).toBe(false);
    expect(choice.warnings).toEqual([
      expect.objectContaining({ code: 'gpu/hdr-software', message: expect.stringContaining('h264_nvenc') }),
    ]);
  });
  it('without zscale: --hdr is an error with the fix; HDR clips fall back to SDR with a warning', async () => {
    await expect(chooseDynamicRange({ ...base, hdr: true, zscale: false })).rejects.toMatchObject({
      code: 'hdr-unsupported',
      message: expect.stringMatching(/zscale.*apt-get install ffmpeg/),
    });
    const auto = await chooseDynamicRange({ ...base, zscale: false, sources: [pq] });
    expect(auto.hdr).toBeUndefined();
    expect(auto.warnings.map((w) => w.code)).toEqual(['hdr/no-tone-mapping']);
  });
});
