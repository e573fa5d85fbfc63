import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED, measurePreview, MIN_PSNR_DB, PARITY, referenceFrames, runRenderApiContract, type ParityComposition } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir } from '@seekframe/render-api/node';
import { startBlobFake, type BlobFake } from '@seekframe/vercel-sandbox/testing';
import { buildNextAppOnce, REPO_ROOT, startNextServer } from './next-server.js';

// The template as it deploys: `next build` once (cached on a hash of its inputs), then
// `next start` on 127.0.0.1 per settings group, with the shared contract suite over HTTP and the
// preview page in headless Chromium. Stand-ins: Blob = the local server speaking its API; the
// sandbox = local child processes running this checkout's CLI. In this file (one `next build` per
// run), the preview is also measured against the render.

let blob: BlobFake;
let scratch: string;

beforeAll(async () => {
  await buildNextAppOnce();
  blob = await startBlobFake();
  scratch = await mkdtemp(path.join(tmpdir(), 'seekframe-vercel-next-'));
}, 900_000);

afterAll(async () => {
  await blob?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

runRenderApiContract({
  name: 'vercel-sandbox (next start)',
  answerMode: 'sync',
  async start(settings) {
    const env: Record<string, string> = {
      BLOB_READ_WRITE_TOKEN: blob.token,
      VERCEL_BLOB_API_URL: blob.apiUrl,
      SEEKFRAME_SANDBOX: 'local',
      SEEKFRAME_CLI_BIN: path.join(REPO_ROOT, 'core/cli/bin/seekframe.js'),
      SEEKFRAME_LOCAL_SANDBOX_DIR: scratch,
      PREVIEW_COMPOSITION_DIR: contractCompositionDir(),
    };
    if (settings.token) env.RENDER_API_TOKEN = settings.token;
    if (settings.allowCustomHtml) env.ALLOW_CUSTOM_HTML = 'true';
    if (settings.maxConcurrentRenders !== undefined) env.RENDER_MAX_CONCURRENT = String(settings.maxConcurrentRenders);
    if (settings.maxFrames !== undefined) env.RENDER_MAX_FRAMES = String(settings.maxFrames);
    if (settings.maxMemoryMB !== undefined) env.RENDER_MAX_MEMORY_MB = String(settings.maxMemoryMB);
    if (settings.retentionSeconds !== undefined) env.RENDER_RETENTION_SECONDS = String(settings.retentionSeconds);
    const server = await startNextServer(env);
    return { baseUrl: server.baseUrl, stop: server.stop };
  },
});

// The preview shows what the render renders: the page in Chromium that reaches only loopback, the
// player seeked to three times, each picture against the render's frame (PSNR at 640x360).
describe.each([BUNDLED, PARITY])('vercel-sandbox (next start) preview of $name', (composition: ParityComposition) => {
  it('matches the render at three times, offline', async () => {
    const reference = await referenceFrames(composition);
    const server = await startNextServer({
      BLOB_READ_WRITE_TOKEN: blob.token,
      VERCEL_BLOB_API_URL: blob.apiUrl,
      SEEKFRAME_SANDBOX: 'local',
      SEEKFRAME_CLI_BIN: path.join(REPO_ROOT, 'core/cli/bin/seekframe.js'),
      SEEKFRAME_LOCAL_SANDBOX_DIR: scratch,
      PREVIEW_COMPOSITION_DIR: composition.dir,
    });
    try {
      const { psnr, offline } = await measurePreview('Vercel template (next start)', `${server.baseUrl}/`, composition, reference);
      expect(offline).toEqual([]);
      for (const value of psnr) expect(value).toBeGreaterThanOrEqual(MIN_PSNR_DB);
    } finally {
      await server.stop();
    }
  }, 300_000);
});
