import { afterAll, beforeAll } from 'vitest';
import { type BrowserPool, createBrowserPool } from '@seekframe/engine';
import { runRenderApiContract } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir } from '@seekframe/render-api/node';
import { producerCore, type RenderCore } from '@seekframe/producer/distributed';
import { startLocalLambdaApi } from './support/local-lambda-api.js';

// One warm browser for the whole file, as a warm Lambda keeps one: each chunk leases it in a fresh context.
let browsers: BrowserPool;
let core: RenderCore;
beforeAll(async () => {
  browsers = createBrowserPool({ maxBrowsers: 2 });
  core = producerCore;
});
afterAll(async () => {
  await browsers?.close();
});

/**
 * The Lambda render API through the render API contract every template passes: the API function's
 * app on 127.0.0.1, the bucket in s3rver behind the strict proxy, the state machine run in process
 * (support/local-lambda-api.ts). What a Lambda deployment has not got, and why:
 */
runRenderApiContract({
  name: 'aws-lambda (the API function on 127.0.0.1, s3rver behind the strict proxy, the step handlers in process)',
  answerMode: 'async',
  webhooks: true,
  without: {
    previewPage: 'the function URL serves the API only; a preview is a template of its own',
    customHtml: 'a Lambda render runs the composition deployed with the API; html in a body is refused (403)',
    maxConcurrentRenders: "renders run as far as the account's Lambda concurrency, not a count the API keeps",
    maxMemory: "a render's memory is the functions' memory setting in sst.config.ts, not RENDER_MAX_MEMORY_MB",
    retentionSeconds: "renders expire by the bucket's lifecycle rule, in days (30), not RENDER_RETENTION_SECONDS",
    stills: 'a Lambda render joins mp4 chunks made by several functions; a still is one frame on one machine',
  },
  start: (settings) => startLocalLambdaApi(settings, { compositionDir: contractCompositionDir(), core, browsers }),
});
