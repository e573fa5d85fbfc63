// Bundles <seekframe-player> into one ES module, dist/seekframe-player.js. The runtime IIFE is
// embedded as a string so the player can inject it into pages a plain static server sends.
// Called by `npm run build` and by the tests (which bundle from source, never a stale dist).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { bundleRuntime } from '../../runtime/scripts/bundle.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const entry = path.join(here, '..', 'src', 'index.ts');
export const outfile = path.join(here, '..', 'dist', 'seekframe-player.js');

/** Returns the bundle source; writes `dist/seekframe-player.js` unless `write` is false. */
export async function bundlePlayer({ write = true } = {}) {
  const runtimeSource = await bundleRuntime({ write: false });
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    conditions: ['source'],
    define: { __SEEKFRAME_RUNTIME_SOURCE__: JSON.stringify(runtimeSource) },
    write,
    outfile,
    logLevel: 'warning',
  });
  if (!write) return result.outputFiles[0].text;
  return undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundlePlayer();
}
