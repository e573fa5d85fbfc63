import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { inside } from '@seekframe/producer/inside';
import type { FileSource, PreviewAssets } from '@seekframe/render-api';
import type { SandboxFile } from '../sandbox-port.js';

/**
 * The composition folder as the render API reads it (preview) and as the runner writes it into
 * the sandbox. Kept here rather than imported from `@seekframe/render-api/node`: Next bundles
 * workspace packages, and that entry pulls in the local runner and esbuild.
 * Real paths must stay inside the folder, so a symlink cannot publish other files.
 */
export function compositionFolder(root: string): FileSource & { files(): Promise<SandboxFile[]> } {
  const base = path.resolve(root);
  return {
    async read(relative) {
      const real = await inside(base, relative);
      if (!real) return null;
      const body = await readFile(real).catch(() => null);
      return body ? { body: new Uint8Array(body) } : null;
    },
    async files() {
      const files: SandboxFile[] = [];
      const walk = async (dir: string): Promise<void> => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          const real = await inside(base, full);
          if (!real) continue;
          if (entry.isDirectory()) await walk(full);
          else if (entry.isFile() || entry.isSymbolicLink()) {
            const content = await readFile(real).catch(() => null);
            if (content) files.push({ path: path.relative(base, full).split(path.sep).join('/'), content });
          }
        }
      };
      await walk(base);
      return files;
    },
  };
}

/** The files the preview page loads, by the package export that ships each one (the runtime is
 *  injected into the composition's HTML files by the composition files rule). */
const PREVIEW_EXPORTS: Record<string, string> = {
  'app.js': '@seekframe/render-api/preview/app.js',
  'seekframe-player.js': '@seekframe/player/bundle',
};

/**
 * The preview page's built assets, resolved from the installed packages (`from`: a folder whose
 * node_modules has them, default the working folder) when first asked for.
 */
export function packagedPreviewAssets(from: string = process.cwd()): PreviewAssets {
  const resolver = createRequire(path.join(from, 'noop.js'));
  return {
    async read(name) {
      const specifier = PREVIEW_EXPORTS[name];
      if (!specifier) return null;
      const body = await readFile(resolver.resolve(specifier));
      return { body: new Uint8Array(body), contentType: 'text/javascript; charset=utf-8' };
    },
  };
}
