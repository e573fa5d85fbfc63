import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDir } from './package-dir.js';
import { SeekframeError } from '@seekframe/composition';
import type { PreviewAssets } from '../ports.js';

/** Where the built page script lives (`npm run build -w @seekframe/render-api` writes it). */
export const PREVIEW_APP_FILE = fileURLToPath(new URL('../../dist/preview/app.js', import.meta.url));
const PREVIEW_APP_SOURCE = fileURLToPath(new URL('../../src/preview/app/main.ts', import.meta.url));

/** The player bundle's file (`@seekframe/player/bundle`). */
export function playerBundleFile(): string {
  return path.join(packageDir('@seekframe/player'), 'dist', 'seekframe-player.js');
}

async function bundleFromSource(): Promise<string> {
  // Development from a checkout: bundle the TypeScript page script in memory with esbuild.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [PREVIEW_APP_SOURCE],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/**
 * The preview page's assets from disk: `app.js` (the built page script; from a checkout without
 * a build, bundled from source once) and `seekframe-player.js` (the player bundle).
 */
export function nodePreviewAssets(options: { fromSource?: boolean } = {}): PreviewAssets {
  let app: Promise<string> | undefined;
  const loadApp = (): Promise<string> => {
    app ??= options.fromSource || !existsSync(PREVIEW_APP_FILE) ? bundleFromSource() : readFile(PREVIEW_APP_FILE, 'utf8');
    return app;
  };
  return {
    async read(name) {
      if (name === 'app.js') return { body: await loadApp(), contentType: 'text/javascript; charset=utf-8' };
      if (name === 'seekframe-player.js') {
        const file = playerBundleFile();
        const body = await readFile(file).catch(() => {
          throw new SeekframeError(
            'player-bundle-missing',
            `The player bundle ${file} is missing; run \`npm run build -w @seekframe/player\`.`,
            { stage: 'config' },
          );
        });
        return { body: new Uint8Array(body), contentType: 'text/javascript; charset=utf-8' };
      }
      return null;
    },
  };
}
