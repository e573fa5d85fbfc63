import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { parseRenderOptions } from './parse-render-options.js';
import { defaultOutputPath } from './render-options.js';

describe('render options', () => {
  it('fills defaults', () => {
    const options = parseRenderOptions({ projectDir: 'demo' });
    expect(options).toMatchObject({
      format: 'mp4',
      quality: 'standard',
      workers: 'auto',
      captureMode: 'auto',
      browserGpu: false,
      gifLoop: 0,
    });
    expect(options.fps).toBeUndefined();
  });

  it('parses integer and rational frame rates exactly', () => {
    expect(parseRenderOptions({ projectDir: 'd', fps: 30 }).fps).toEqual({ num: 30, den: 1 });
    expect(parseRenderOptions({ projectDir: 'd', fps: '24' }).fps).toEqual({ num: 24, den: 1 });
    expect(parseRenderOptions({ projectDir: 'd', fps: '30000/1001' }).fps).toEqual({ num: 30000, den: 1001 });
    expect(parseRenderOptions({ projectDir: 'd', fps: '60/2' }).fps).toEqual({ num: 30, den: 1 });
    // Parsed options parse again unchanged (the CLI validates, then hands them to renderComposition).
    const parsed = parseRenderOptions({ projectDir: 'd', fps: '30000/1001' });
    expect(parseRenderOptions(parsed)).toEqual(parsed);
  });

  it.each([0, 241, 29.97, '0/1', '30/0', 'fast'])('rejects fps %s naming the field', (fps) => {
    expect(() => parseRenderOptions({ projectDir: 'd', fps })).toThrow(/fps .*1 to 240/);
  });

  it('rejects crf together with videoBitrate, naming both and the flag', () => {
    let caught: unknown;
    try {
      parseRenderOptions({ projectDir: 'd', crf: 20, videoBitrate: '5M' }, (f) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SeekframeError);
    expect((caught as SeekframeError).code).toBe('invalid-options');
    expect((caught as SeekframeError).message).toMatch(/--crf .*videoBitrate exclude each other/);
  });

  it('checks ranges of crf, gifLoop, workers and the bit rate syntax', () => {
    expect(() => parseRenderOptions({ projectDir: 'd', crf: 52 })).toThrow(/crf must be 0-51/);
    expect(() => parseRenderOptions({ projectDir: 'd', gifLoop: 70000 })).toThrow(/gifLoop must be 0-65535/);
    expect(() => parseRenderOptions({ projectDir: 'd', workers: 25 })).toThrow(/workers must be 1-24 or auto/);
    expect(() => parseRenderOptions({ projectDir: 'd', videoBitrate: 'lots' })).toThrow(/videoBitrate must be a bit rate/);
    expect(() => parseRenderOptions({ projectDir: 'd', format: 'avi' })).toThrow(/format must be one of mp4/);
    expect(parseRenderOptions({ projectDir: 'd', videoBitrate: '2500k', workers: 3 })).toMatchObject({ videoBitrate: '2500k', workers: 3 });
  });

  it('takes the format from the output extension when none is given', () => {
    expect(parseRenderOptions({ projectDir: 'd', output: 'a/b.webm' }).format).toBe('webm');
    expect(parseRenderOptions({ projectDir: 'd', output: 'a/b.MOV' }).format).toBe('mov');
    expect(parseRenderOptions({ projectDir: 'd', output: 'a/frames' }).format).toBe('mp4');
    expect(parseRenderOptions({ projectDir: 'd', output: 'a/b.webm', format: 'mp4' }).format).toBe('mp4');
  });

  it('derives the default output from the project folder name', () => {
    expect(defaultOutputPath('projects/intro', 'mp4', '/tmp/x')).toBe('/tmp/x/renders/intro.mp4');
    expect(defaultOutputPath('projects/intro/index.html', 'webm', '/tmp/x')).toBe('/tmp/x/renders/intro.webm');
    expect(defaultOutputPath('/a/intro', 'png-sequence', '/tmp/x')).toBe('/tmp/x/renders/intro');
  });
});
