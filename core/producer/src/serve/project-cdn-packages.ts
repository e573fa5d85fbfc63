import { readFile } from 'node:fs/promises';
import { listProjectFiles } from './list-project-html.js';
import { missingCdnPackage, type MissingCdnPackage } from './missing-cdn-package.js';
import { packageSearchRoots } from './resolve-cdn-url.js';

/** npm CDN URLs as they appear in HTML, CSS and scripts (up to a quote, a space or a parenthesis). */
const CDN_URL = /https:\/\/(?:cdn\.jsdelivr\.net\/npm|unpkg\.com)\/[^\s"'`()<>]+/gi;

/**
 * Every package the project's files load from an npm CDN (jsDelivr, unpkg) that is not installed
 * where a render looks (the project's node_modules and those above it, then Seekframe's own), each
 * once with its install command: what `seekframe doctor <dir>` lists. A render would fail on the
 * first page that loads one (`package-not-installed`).
 */
export async function findMissingCdnPackages(root: string): Promise<(MissingCdnPackage & { files: string[] })[]> {
  const searchRoots = packageSearchRoots(root);
  const found = new Map<string, MissingCdnPackage & { files: string[] }>();
  for (const file of await listProjectFiles(root, /\.(?:html?|css|m?js)$/i)) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const [url] of text.matchAll(CDN_URL)) {
      let missing: MissingCdnPackage | null;
      try {
        missing = await missingCdnPackage(url, searchRoots);
      } catch {
        continue; // a URL that names no package: the render refuses it with its own error
      }
      if (!missing) continue;
      const key = missing.install;
      const entry = found.get(key) ?? { ...missing, files: [] };
      if (!entry.files.includes(file)) entry.files.push(file);
      found.set(key, entry);
    }
  }
  return [...found.values()];
}
