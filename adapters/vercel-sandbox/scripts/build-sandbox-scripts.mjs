// Bundles the script that runs inside the sandbox (with its npm dependencies) into one file,
// dist/sandbox-scripts/run-job.mjs, so a sandbox needs nothing but Node to run it. Written to a
// temp file and renamed: tests that rebuild it while others read it never see half a file.
// Usage: node scripts/build-sandbox-scripts.mjs [out-dir]
import { build } from 'esbuild';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'dist/sandbox-scripts'));
const result = await build({
  entryPoints: [path.join(root, 'src/sandbox-scripts/run-job.ts')],
  bundle: true,
  write: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: { js: "import { createRequire as __seekframeRequire } from 'node:module'; const require = __seekframeRequire(import.meta.url);" },
});
const file = path.join(outDir, 'run-job.mjs');
await mkdir(outDir, { recursive: true });
const temp = `${file}.${process.pid}.tmp`;
await writeFile(temp, result.outputFiles[0].contents);
await rename(temp, file);
