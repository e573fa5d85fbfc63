import { runRenderApiContract, type ContractSettings } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir } from '@seekframe/render-api/node';
import { startLocalWorker } from './helpers/start-local-worker.js';

/**
 * The shared render API contract against the Cloudflare template's local form: the Worker in the
 * real Workers runtime (Miniflare) with local R2 and Durable Objects, renders on the container's
 * server running on the host (CONTAINER_LOCAL_URL), the preview page in headless Chromium.
 */
function vars(settings: ContractSettings): Record<string, string> {
  return {
    ...(settings.token ? { RENDER_API_TOKEN: settings.token } : {}),
    ...(settings.allowCustomHtml ? { ALLOW_CUSTOM_HTML: 'true' } : {}),
    ...(settings.maxFrames ? { RENDER_MAX_FRAMES: String(settings.maxFrames) } : {}),
    ...(settings.maxMemoryMB ? { RENDER_MAX_MEMORY_MB: String(settings.maxMemoryMB) } : {}),
    ...(settings.retentionSeconds ? { RENDER_RETENTION_SECONDS: String(settings.retentionSeconds) } : {}),
    ...(settings.maxConcurrentRenders ? { RENDER_MAX_CONCURRENT: String(settings.maxConcurrentRenders) } : {}),
  };
}

runRenderApiContract({
  name: 'cloudflare-container (Worker in Miniflare, R2, container server on the host)',
  answerMode: 'sync',
  async start(settings) {
    // As deployed: the container slots (max_instances) match RENDER_MAX_CONCURRENT.
    const slots = settings.maxConcurrentRenders ?? 5;
    const worker = await startLocalWorker({
      compositionDir: contractCompositionDir(),
      vars: { RENDER_MAX_CONCURRENT: String(slots), ...vars(settings) },
      container: { maxConcurrent: slots },
    });
    return { baseUrl: worker.url, stop: worker.stop };
  },
});
