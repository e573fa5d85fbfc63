import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLED,
  measurePreview,
  MIN_PSNR_DB,
  PARITY,
  referenceFrames,
  type ParityComposition,
} from '@seekframe/render-api/contract-suite';
import { APP_DIR, startPythonApp } from './start-python-app.js';

const run = promisify(execFile);

/**
 * The Modal template's preview (src/app.py under uvicorn with the local stand-in) shows what the
 * render renders: the files scripts/build.mjs prepared with the render's rule, in Chromium that
 * reaches only loopback, compared with the render's frames (PSNR at 640x360).
 */
let dist: string;
beforeAll(async () => {
  // Its own dist folder: the other Modal test file builds into dist/ at the same time.
  dist = await mkdtemp(path.join(tmpdir(), 'modal-parity-dist-'));
  await run(process.execPath, [path.join(APP_DIR, 'scripts/build.mjs'), '--composition', BUNDLED.dir, '--composition', PARITY.dir], {
    env: { ...process.env, SEEKFRAME_TEMPLATE_DIST: dist },
  });
}, 180_000);
afterAll(async () => rm(dist, { recursive: true, force: true }));

describe.each([BUNDLED, PARITY])('Modal template preview of $name', (composition: ParityComposition) => {
  it('matches the render at three times, offline', async () => {
    const reference = await referenceFrames(composition);
    const app = await startPythonApp({ compositionDir: composition.dir, dist });
    try {
      const { psnr, offline } = await measurePreview('Modal template (local stand-in)', `${app.url}/`, composition, reference);
      expect(offline).toEqual([]);
      for (const value of psnr) expect(value).toBeGreaterThanOrEqual(MIN_PSNR_DB);
    } finally {
      await app.stop();
    }
  }, 300_000);
});
