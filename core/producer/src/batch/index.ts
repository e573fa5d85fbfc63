export { renderBatch, type BatchResult } from './render-batch.js';
export {
  BatchOptionsSchema,
  parseBatchOptions,
  defaultBatchOutputTemplate,
  type BatchOptions,
  type BatchOptionsInput,
} from './batch-options.js';
export { ManifestSchema, ManifestRowSchema, readManifest, type Manifest, type ManifestRow } from './batch-manifest.js';
export { workersPerRow } from './batch-workers.js';
