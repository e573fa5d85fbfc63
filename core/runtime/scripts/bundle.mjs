// Bundles the in-page runtime into one IIFE. Called by `npm run build` and by the browser tests
// (which bundle from source so they never test a stale dist file).
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
export const entry = path.join(here, '..', 'src', 'browser', 'main.ts');
export const outfile = path.join(here, '..', 'dist', 'seekframe-runtime.js');

// @seekframe/composition is side-effect free, but does not say so in its package.json; without
// this its zod schemas (which the page never uses) would be bundled with all of zod's locales.
const compositionSrc = `${path.sep}core${path.sep}composition${path.sep}src${path.sep}`;
const pureComposition = {
  name: 'pure-composition',
  setup(b) {
    b.onResolve({ filter: /^(\.|@seekframe\/composition$)/ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const ours = args.path === '@seekframe/composition' || args.importer.includes(compositionSrc);
      if (!ours) return undefined;
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'inner',
      });
      return { path: resolved.path, namespace: resolved.namespace, sideEffects: false };
    });
  },
};

/** Returns the bundle source; writes `dist/seekframe-runtime.js` unless `write` is false. */
export async function bundleRuntime({ write = true } = {}) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    conditions: ['source'],
    write,
    outfile,
    plugins: [pureComposition],
    logLevel: 'warning',
  });
  if (!write) return result.outputFiles[0].text;
  return undefined;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleRuntime();
}
