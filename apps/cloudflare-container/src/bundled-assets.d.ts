// The virtual module scripts/build.mjs generates: the composition (PREVIEW_COMPOSITION_DIR) and
// the preview page's assets, embedded into the Worker bundle.
declare module 'seekframe:bundled-assets' {
  import type { BundledFile } from './bundled-files.js';
  export const composition: Record<string, BundledFile>;
  export const preview: Record<string, BundledFile>;
}
