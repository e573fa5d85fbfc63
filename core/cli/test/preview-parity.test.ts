import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePlayer } from '../../player/scripts/bundle.mjs';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';
import { bundlePreviewApp } from '../scripts/bundle-preview-app.mjs';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';
import {
  BUNDLED,
  measurePreview,
  MIN_PSNR_DB,
  PARITY,
  referenceFrames,
  type ParityComposition,
} from '@seekframe/render-api/contract-suite';

/**
 * `seekframe preview` shows what `seekframe render` renders: the preview page in Chromium that
 * reaches only loopback, the player seeked to three times, each picture against the render's
 * frame (PSNR at 640x360).
 */
let sources: { playerSource: string; appSource: string; runtimeSource: string };

beforeAll(async () => {
  sources = {
    playerSource: (await bundlePlayer({ write: false })) as string,
    appSource: (await bundlePreviewApp({ write: false })) as string,
    runtimeSource: (await bundleRuntime({ write: false })) as string,
  };
});

describe.each([BUNDLED, PARITY])('seekframe preview of $name', (composition: ParityComposition) => {
  let preview: PreviewServer;
  let reference: string[];
  beforeAll(async () => {
    reference = await referenceFrames(composition);
    preview = await startPreview({ entryFile: path.join(composition.dir, 'index.html'), port: 0, ...sources });
  }, 300_000);
  afterAll(async () => preview?.close());

  it('matches the render at three times, offline', async () => {
    const { psnr, offline } = await measurePreview('seekframe preview', preview.url, composition, reference);
    expect(offline).toEqual([]);
    for (const value of psnr) expect(value).toBeGreaterThanOrEqual(MIN_PSNR_DB);
  }, 180_000);
});
