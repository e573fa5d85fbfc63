import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePlayer } from '../../player/scripts/bundle.mjs';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { bundlePreviewApp } from '../scripts/bundle-preview-app.mjs';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';
import { measurePreview, MIN_PSNR_DB, referenceFrames, type ParityComposition } from '@seekframe/render-api/contract-suite';
import { runCli } from './run-cli.js';

const run = promisify(execFile);

/**
 * A HyperFrames composition whose first composition element is a sized background `<canvas>` with
 * no length, and whose real root (after it) carries data-duration: lint accepts it, the render
 * takes its length and animation from the real root, and the preview shows the same frames.
 */
const BACKGROUND_ROOT: ParityComposition = {
  name: 'background-root',
  dir: fileURLToPath(new URL('fixtures/background-root', import.meta.url)),
  times: [0.5, 1, 1.5],
  fps: 2,
};

/** The RGB of one pixel of a PNG. */
async function pixel(file: string, x: number, y: number): Promise<number[]> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-vf', `crop=1:1:${x}:${y},format=rgb24`, '-f', 'rawvideo', '-'], {
    encoding: 'buffer',
  });
  return [...stdout.subarray(0, 3)];
}

describe('a background composition element before the root', () => {
  let reference: string[];
  let preview: PreviewServer;
  beforeAll(async () => {
    reference = await referenceFrames(BACKGROUND_ROOT);
    preview = await startPreview({
      entryFile: path.join(BACKGROUND_ROOT.dir, 'index.html'),
      port: 0,
      playerSource: (await bundlePlayer({ write: false })) as string,
      appSource: (await bundlePreviewApp({ write: false })) as string,
      runtimeSource: (await bundleRuntime({ write: false })) as string,
    });
  }, 300_000);
  afterAll(async () => preview?.close());

  it('passes lint', async () => {
    const result = await runCli(['lint', BACKGROUND_ROOT.dir, '--json']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });

  it('renders the root: its length (2 s at 2 fps = 4 frames), the canvas behind, the box moving', async () => {
    // Frame at 1 s: the box has slid 110 px (left edge 130), the canvas blue shows around it.
    expect(await pixel(reference[1]!, 160, 90)).toEqual([255, 90, 54]);
    expect(await pixel(reference[1]!, 40, 90)).toEqual([31, 111, 235]);
    // At 0.5 s the box is at 75..135: x=160 is background.
    expect(await pixel(reference[0]!, 160, 90)).toEqual([31, 111, 235]);
    const frames = await run('ls', [path.dirname(reference[0]!)]);
    expect(frames.stdout.trim().split('\n')).toEqual(['frame_000001.png', 'frame_000002.png', 'frame_000003.png', 'frame_000004.png']);
  });

  it('previews the same frames', async () => {
    const { psnr } = await measurePreview('seekframe preview', preview.url, BACKGROUND_ROOT, reference);
    for (const value of psnr) expect(value).toBeGreaterThanOrEqual(MIN_PSNR_DB);
  }, 120_000);
});
