import { checkoutCli, contractSettingsEnv, runRenderApiContract, type ContractSettings } from '@seekframe/render-api/contract-suite';
import { contractCompositionDir, nodePreviewAssets, serveLocal } from '@seekframe/render-api/node';

/** The local twin every template starts from: serveLocal = render API + local runner + folder store. */
async function start(settings: ContractSettings, answerMode: 'sync' | 'call-id') {
  const api = await serveLocal({
    compositionDir: contractCompositionDir(),
    answerMode,
    // CLI and page script from the TypeScript sources, so the suite never runs a stale build.
    runner: { cli: checkoutCli(), workers: 1 },
    previewAssets: nodePreviewAssets({ fromSource: true }),
    ...(settings.token ? { token: settings.token } : {}),
    ...(settings.allowCustomHtml ? { allowCustomHtml: true } : {}),
    ...(settings.maxConcurrentRenders ? { maxConcurrentRenders: settings.maxConcurrentRenders } : {}),
    ...(settings.maxFrames || settings.maxMemoryMB
      ? {
          limits: {
            ...(settings.maxFrames ? { maxFrames: settings.maxFrames } : {}),
            ...(settings.maxMemoryMB ? { maxMemoryMB: settings.maxMemoryMB } : {}),
          },
        }
      : {}),
    ...(settings.retentionSeconds ? { retentionSeconds: settings.retentionSeconds } : {}),
    // RENDER_WEBHOOK_* through the environment, as a template reads them.
    env: contractSettingsEnv({
      ...(settings.webhookSecret ? { webhookSecret: settings.webhookSecret } : {}),
      ...(settings.webhookAllowLoopback ? { webhookAllowLoopback: true } : {}),
    }),
  });
  return { baseUrl: api.url, stop: () => api.close() };
}

runRenderApiContract({
  name: 'local twin (serveLocal, sync)',
  answerMode: 'sync',
  webhooks: true,
  start: (settings) => start(settings, 'sync'),
});
