// The virtual module scripts/build.mjs generates: the composition (PREVIEW_COMPOSITION_DIR) and
// the preview page's assets embedded into the Worker bundle, and the manifest of the composition
// files it prepared into the Worker's static assets.
declare module 'seekframe:bundled-assets' {
  import type { ExportedFilesManifest } from '@seekframe/producer/composition-files';
  import type { BundledFile } from './bundled-files.js';
  export const composition: Record<string, BundledFile>;
  export const preview: Record<string, BundledFile>;
  export const compositionFiles: ExportedFilesManifest;
}
