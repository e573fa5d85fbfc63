import { describe, expect, it } from 'vitest';
import { parseEncoderOptions } from '@seekframe/engine';
import { parseRenderSpec, RenderSpecSchema } from './render-spec.js';

/** Does the engine's encoder accept these settings (the size and rate are fine)? */
function engineAccepts(settings: { format: 'mp4' | 'webm' | 'gif' | 'mov'; crf?: number; videoBitrate?: string }): boolean {
  try {
    parseEncoderOptions({ output: 'x', width: 160, height: 90, fps: { num: 30, den: 1 }, inputFormat: 'png', ...settings });
    return true;
  } catch {
    return false;
  }
}

function specAccepts(settings: Record<string, unknown>): boolean {
  return RenderSpecSchema.safeParse({ projectDir: 'd', ...settings }).success;
}

describe('render spec', () => {
  it.each([
    { format: 'mp4', crf: 51 },
    { format: 'mp4', crf: 52 },
    { format: 'webm', crf: 52 },
    { format: 'webm', crf: 63 },
    { format: 'webm', crf: 64 },
    { format: 'gif', crf: 20 },
    { format: 'mov', videoBitrate: '5M' },
    { format: 'mp4', videoBitrate: '1.5G' },
    { format: 'mp4', videoBitrate: '2500k' },
    { format: 'webm', videoBitrate: '5T' },
    { format: 'mp4', videoBitrate: '99999999999G' },
    { format: 'mp4', videoBitrate: '2.5G' },
    { format: 'mp4', videoBitrate: '2G' },
    { format: 'mp4', videoBitrate: '999' },
    { format: 'webm', videoBitrate: '1k' },
    { format: 'mp4', crf: 20, videoBitrate: '5M' },
  ] as const)('accepts exactly what the encoder accepts: %o', (settings) => {
    expect(specAccepts(settings)).toBe(engineAccepts(settings));
  });

  it("names the format's own crf range and the bit-rate syntax", () => {
    expect(() => parseRenderSpec({ projectDir: 'd', format: 'webm', crf: 64 })).toThrow(/crf must be 0-51 for mp4, 0-63 for webm/);
    expect(() => parseRenderSpec({ projectDir: 'd', crf: 52 })).toThrow(/crf must be 0-51 for mp4/);
    expect(parseRenderSpec({ projectDir: 'd', format: 'webm', crf: 60 }).crf).toBe(60);
    expect(parseRenderSpec({ projectDir: 'd', videoBitrate: '1.5G' }).videoBitrate).toBe('1.5G');
    expect(() => parseRenderSpec({ projectDir: 'd', format: 'gif', crf: 20 })).toThrow(/crf applies to mp4, hls and webm only, not gif/);
    // The syntax alone let 99999999999G through to ffmpeg, which failed mid-render.
    expect(() => parseRenderSpec({ projectDir: 'd', videoBitrate: '99999999999G' })).toThrow(/videoBitrate must be 1k-2G bits per second/);
    expect(() => parseRenderSpec({ projectDir: 'd', videoBitrate: '0' })).toThrow(/videoBitrate must be 1k-2G bits per second/);
  });

  it('is data only: one invalid-options error naming the source and every problem', () => {
    let caught: unknown;
    try {
      parseRenderSpec({ projectDir: 'd', quality: 'best', workers: 99 }, 'payload.json');
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'invalid-options' });
    expect((caught as Error).message).toMatch(/^payload\.json: quality must be draft, standard or high; workers must be 1-24 or auto/);
    // The abort signal belongs to the render context, not to the spec.
    expect(Object.keys(RenderSpecSchema.parse({ projectDir: 'd' }))).not.toContain('signal');
  });

  it('frames: "30-59", "45", 45 or {start, end}, both ends included; a wrong one names the field and the form', () => {
    expect(parseRenderSpec({ projectDir: 'd', frames: '30-59' }).frames).toEqual({ start: 30, end: 59 });
    expect(parseRenderSpec({ projectDir: 'd', frames: ' 45 ' }).frames).toEqual({ start: 45, end: 45 });
    expect(parseRenderSpec({ projectDir: 'd', frames: 0 }).frames).toEqual({ start: 0, end: 0 });
    expect(parseRenderSpec({ projectDir: 'd', frames: { start: 3, end: 9 } }).frames).toEqual({ start: 3, end: 9 });
    expect(parseRenderSpec({ projectDir: 'd' }).frames).toBeUndefined();
    expect(() => parseRenderSpec({ projectDir: 'd', frames: '59-30' })).toThrow(/frames 59-30 ends before it starts; give first-last/);
    expect(() => parseRenderSpec({ projectDir: 'd', frames: '1.5-3' })).toThrow(/frames "1.5-3" is not a frame range/);
    expect(() => parseRenderSpec({ projectDir: 'd', frames: -1 })).toThrow(/frames "-1" is not a frame range/);
    expect(() => parseRenderSpec({ projectDir: 'd', frames: { start: 2 } })).toThrow(/frames start and end must be whole frame numbers/);
    expect(() => parseRenderSpec({ projectDir: 'd', frames: { start: 1, end: 2, step: 1 } })).toThrow(/unknown field\(s\) step/);
    expect(() => parseRenderSpec({ projectDir: 'd', frames: [1, 2] })).toThrow(/frames must be a string like "30-59"/);
  });
});
