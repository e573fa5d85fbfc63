import { describe, expect, it } from 'vitest';
import {
  BUNDLED,
  measurePreview,
  MIN_PSNR_DB,
  PARITY,
  referenceFrames,
  type ParityComposition,
} from '@seekframe/render-api/contract-suite';
import { startLocalWorker } from '../local/local-worker.js';

/**
 * The Cloudflare template's preview (the Worker in the real Workers runtime, local mode) shows
 * what the render renders: scripts/build.mjs prepared the composition's files with the render's
 * rule into the Worker's static assets; Chromium reaches only loopback; each picture is compared
 * with the render's frame (PSNR at 640x360). No renders here: the container URL is a closed port.
 */
describe.each([BUNDLED, PARITY])('Cloudflare Worker preview of $name', (composition: ParityComposition) => {
  it('matches the render at three times, offline', async () => {
    const reference = await referenceFrames(composition);
    const worker = await startLocalWorker({ compositionDir: composition.dir, containerUrl: 'http://127.0.0.1:9' });
    try {
      const { psnr, offline } = await measurePreview('Cloudflare Worker (local mode)', `${worker.url}/`, composition, reference);
      expect(offline).toEqual([]);
      for (const value of psnr) expect(value).toBeGreaterThanOrEqual(MIN_PSNR_DB);
    } finally {
      await worker.stop();
    }
  }, 300_000);
});
