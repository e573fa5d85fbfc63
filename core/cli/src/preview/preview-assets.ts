import { readPackageAsset } from '@seekframe/producer';

/** The `<seekframe-player>` ES module the preview page loads (`@seekframe/player/bundle`). */
export function loadPlayerSource(): Promise<string> {
  return readPackageAsset('@seekframe/player/bundle', {
    build: 'npm run build -w @seekframe/player',
    what: 'the <seekframe-player> bundle',
    from: import.meta.url,
  });
}

/** The preview page's script (src/preview/browser/preview-app.ts, bundled to dist/preview/preview-app.js). */
export function loadPreviewAppSource(): Promise<string> {
  return readPackageAsset('seekframe/preview-app.js', {
    build: 'npm run build -w seekframe',
    what: 'the preview page script',
    from: import.meta.url,
  });
}
