// Node-only helpers: the local runner, stores on disk, the preview assets from disk, serveLocal.
export { createLocalRunner, renderArguments, type CliCommand, type LocalRunnerOptions } from './create-local-runner.js';
export { folderSource } from './folder-source.js';
export { nodeCompositionFiles } from './composition-files.js';
export { nodePreviewAssets, playerBundleFile, PREVIEW_APP_FILE } from './preview-assets.js';
export {
  serveLocal,
  serveRenderApi,
  type ServeLocalOptions,
  type ServeRenderApiOptions,
  type ClosableRunner,
  type LocalRenderApi,
} from './serve-local.js';
export { contractCompositionDir, gatedCompositionDir } from './contract-composition.js';
export { nodeWebhooks } from './node-webhooks.js';
