import { readPackageAsset } from '../assets/resolve-package-asset.js';

let cached: Promise<string> | undefined;

/** The browser bundle of @seekframe/runtime (`@seekframe/runtime/bundle`), read once. */
export function loadRuntimeSource(): Promise<string> {
  cached ??= readPackageAsset('@seekframe/runtime/bundle', {
    build: 'npm run build -w @seekframe/runtime',
    what: 'the Seekframe runtime bundle',
  });
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}
