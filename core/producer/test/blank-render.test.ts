import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BlankFrameWatch, flatColourOf, reportSilentProblem, type RenderWarning } from '../src/render/blank-render.js';

const run = promisify(execFile);

/** A real 32x18 image made by ffmpeg from a lavfi source (`color=c=…`, `testsrc`): RGBA PNG by default. */
async function image(source: string, codec: 'png' | 'mjpeg' | 'bmp' = 'png'): Promise<Buffer> {
  const graph = `${source}${source.includes('=') ? ':' : '='}s=32x18,format=${codec === 'mjpeg' ? 'yuvj420p' : codec === 'bmp' ? 'bgr24' : 'rgba'}`;
  const { stdout } = await run(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', graph, '-frames:v', '1', '-f', 'image2pipe', '-c:v', codec, 'pipe:1'],
    {
      encoding: 'buffer',
    },
  );
  return stdout;
}

describe('BlankFrameWatch', () => {
  it('names the colour when every frame is the same flat picture', async () => {
    const frame = await image('color=c=0x102030');
    const watch = new BlankFrameWatch();
    for (let i = 0; i < 3; i++) watch.observe(Buffer.from(frame));
    // lavfi's colour source goes through YUV: a level off is its rounding, not ours.
    expect(watch.flatColour()).toMatch(/^#(0f|10|11)(1f|20|21)(2f|30|31)$/);
  });

  it('says nothing when a frame differs, or when the one picture is not flat', async () => {
    const varied = new BlankFrameWatch();
    varied.observe(await image('color=c=black'));
    varied.observe(await image('color=c=white'));
    varied.observe(await image('color=c=black'));
    expect(varied.flatColour()).toBeUndefined();
    const still = new BlankFrameWatch();
    const pattern = await image('testsrc');
    still.observe(pattern);
    still.observe(Buffer.from(pattern));
    expect(still.flatColour()).toBeUndefined();
    expect(new BlankFrameWatch().flatColour()).toBeUndefined();
  });

  it('reads a fully transparent frame as transparent', async () => {
    expect(flatColourOf(await image('color=c=black@0.0'))).toBe('transparent');
  });

  it('reads a JPEG frame (what opaque captures are)', async () => {
    expect(flatColourOf(await image('color=c=0x102030', 'mjpeg'))).toMatch(/^#(0e|0f|10|11|12)(1e|1f|20|21|22)(2e|2f|30|31|32)$/);
    expect(flatColourOf(await image('testsrc', 'mjpeg'))).toBeUndefined();
  });

  it('gives no verdict on an image that is neither PNG nor JPEG, or a damaged one', async () => {
    expect(flatColourOf(await image('color=c=0x102030', 'bmp'))).toBeUndefined();
    const jpegFrame = await image('color=c=0x102030', 'mjpeg');
    expect(flatColourOf(jpegFrame.subarray(0, 40))).toBeUndefined();
  });
});

describe('reportSilentProblem', () => {
  const problem = { code: 'blank-render', message: 'x painted nothing', stage: 'capture' as const, details: { file: 'x.html' } };
  it('is a warning event, or under strict a SeekframeError with the same code', () => {
    const events: RenderWarning[] = [];
    reportSilentProblem(problem, false, (w) => events.push(w));
    expect(events).toEqual([{ type: 'warning', code: 'blank-render', message: 'x painted nothing', details: { file: 'x.html' } }]);
    expect(() => reportSilentProblem(problem, true, (w) => events.push(w))).toThrow(
      expect.objectContaining({ code: 'blank-render', stage: 'capture' }),
    );
    expect(events).toHaveLength(1);
  });
});
