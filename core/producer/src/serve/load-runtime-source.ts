import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SeekframeError } from '@seekframe/composition';

let cached: Promise<string> | undefined;

/**
 * The browser bundle of @seekframe/runtime (`@seekframe/runtime/bundle`, dist/seekframe-runtime.js).
 * Located through node_modules rather than the package's export map, because the bundle is a
 * plain script file to read, not a module to import.
 */
export function loadRuntimeSource(): Promise<string> {
  cached ??= locate().then((file) => readFile(file, 'utf8'));
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}

async function locate(): Promise<string> {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const packageDir = path.join(dir, 'node_modules', '@seekframe', 'runtime');
    const manifest = await readFile(path.join(packageDir, 'package.json'), 'utf8').catch(() => null);
    if (manifest) {
      const file = path.join(packageDir, bundlePath(JSON.parse(manifest) as { exports?: Record<string, unknown> }));
      if (await stat(file).then((s) => s.isFile(), () => false)) return file;
      throw new SeekframeError(
        'runtime-bundle-missing',
        `The Seekframe runtime bundle ${file} does not exist. Build it with \`npx turbo run build\` (or reinstall seekframe).`,
        { stage: 'serve', details: { file } },
      );
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new SeekframeError('runtime-bundle-missing', 'Could not find the @seekframe/runtime package; reinstall seekframe.', { stage: 'serve' });
}

function bundlePath(manifest: { exports?: Record<string, unknown> }): string {
  const entry = manifest.exports?.['./bundle'];
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object') {
    const target = (entry as Record<string, unknown>).default ?? (entry as Record<string, unknown>).import;
    if (typeof target === 'string') return target;
  }
  return 'dist/seekframe-runtime.js';
}
