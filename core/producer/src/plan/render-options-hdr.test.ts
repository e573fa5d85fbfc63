import { describe, expect, it } from 'vitest';
import { parseRenderOptions } from './parse-render-options.js';

const flag = (f: string): string => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

describe('render options: --gpu, --hdr, --sdr', () => {
  it('default off', () => {
    expect(parseRenderOptions({ projectDir: 'd' })).toMatchObject({ gpu: false, hdr: false, sdr: false });
  });
  it('--hdr with --sdr is refused naming both', () => {
    expect(() => parseRenderOptions({ projectDir: 'd', hdr: true, sdr: true }, flag)).toThrow(/^--hdr and --sdr exclude each other/);
  });
  it('--hdr is mp4 only, also when the format comes from the output name', () => {
    expect(() => parseRenderOptions({ projectDir: 'd', hdr: true, format: 'mov' }, flag)).toThrow(
      '--hdr applies to mp4 only (10-bit HEVC), not mov',
    );
    expect(() => parseRenderOptions({ projectDir: 'd', hdr: true, output: 'a.webm' }, flag)).toThrow(/not webm/);
    expect(parseRenderOptions({ projectDir: 'd', hdr: true, output: 'a.mp4' }).hdr).toBe(true);
    // --sdr is harmless for any format: there is nothing to tone-map into a gif but SDR anyway.
    expect(parseRenderOptions({ projectDir: 'd', sdr: true, format: 'gif' }).sdr).toBe(true);
  });
});
