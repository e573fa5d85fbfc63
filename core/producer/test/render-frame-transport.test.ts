import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRenderTuning } from '@seekframe/engine';
import { renderComposition } from '../src/index.js';
import { decodeFrames } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

// Fine detail (a gradient and thin lines) that a quality-1 JPEG visibly destroys. The frame
// transport is the screenshot paths' (beginframe here); canvas capture sends raw pixels and has none.
const html = composition({
  duration: 0.3,
  fps: 10,
  body: `<div style="position:absolute;inset:0;background:linear-gradient(90deg,#123,#fc3 40%,#3cf)"></div>
<div style="position:absolute;left:10px;top:10px;width:140px;height:70px;background:repeating-linear-gradient(45deg,#000 0 2px,#fff 2px 4px)"></div>`,
});

let project: { dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
  project = await tempProject({ 'index.html': html });
});
afterAll(async () => project?.cleanup());

async function render(name: string, tuning: Parameters<typeof withRenderTuning>[0]): Promise<Buffer[]> {
  const output = path.join(project.dir, `${name}.mp4`);
  const result = await withRenderTuning(tuning, () =>
    renderComposition({ projectDir: project.dir, output, workers: 1, quality: 'high', captureMode: 'beginframe' }),
  );
  expect(result.frames).toBe(3);
  return decodeFrames(output, 160, 90);
}

function meanAbsDiff(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('frame transport (render tuning frameFormat)', () => {
  it('png sends lossless frames: the JPEG quality no longer changes a pixel', async () => {
    const pngDefault = await render('png-default', { frameFormat: 'png' });
    const pngIgnoresQuality = await render('png-q1', { frameFormat: 'png', jpegQuality: 1 });
    const jpegQ1 = await render('jpeg-q1', { jpegQuality: 1 });
    expect(pngDefault).toHaveLength(3);
    for (let i = 0; i < 3; i++) expect(pngIgnoresQuality[i]!.equals(pngDefault[i]!), `frame ${i}`).toBe(true);
    // The same setting with JPEG transport loses the detail (mean error of several levels per channel).
    expect(meanAbsDiff(jpegQ1[0]!, pngDefault[0]!)).toBeGreaterThan(3);
  });
});
