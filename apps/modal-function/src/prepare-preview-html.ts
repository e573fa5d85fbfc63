/**
 * The preview's HTML files for the Python app (src/web_routes.py), run as
 * `node dist/prepare-preview-html.mjs` with one JSON object on stdin:
 *   {path, html} -> {ok:true, html}     (path: relative to the composition folder, e.g. index.html)
 * the file with the runtime injected in preview mode by @seekframe/render-api's own
 * injectPreviewRuntime (one copy of the rule: the Node, Worker and Python templates serve the
 * same bytes), so the player loads the entry by URL and sub-compositions get the runtime, as in
 * the render. The runtime bundle is dist/preview/seekframe-runtime.js (scripts/build.mjs copies
 * `@seekframe/runtime/bundle` there). On a failure: {ok:false, status, error}.
 */
import { readFile } from 'node:fs/promises';
import { SeekframeError } from '@seekframe/composition';
import { injectPreviewRuntime, statusOf } from '@seekframe/render-api';

interface Input {
  path: string;
  html: string;
}

const RUNTIME_FILE = new URL('./preview/seekframe-runtime.js', import.meta.url);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<unknown> {
  try {
    const input = JSON.parse(await readStdin()) as Input;
    const runtime = await readFile(RUNTIME_FILE, 'utf8').catch(() => {
      throw new SeekframeError('bundle-missing', 'dist/preview/seekframe-runtime.js (the runtime bundle) is missing; run `npm run build -w @seekframe/modal-function`.', {
        stage: 'serve',
        details: { package: '@seekframe/runtime', specifier: '@seekframe/runtime/bundle', build: 'npm run build -w @seekframe/modal-function' },
      });
    });
    return { ok: true, html: injectPreviewRuntime(input.html, input.path, runtime) };
  } catch (error) {
    const failure = error instanceof SeekframeError ? error : new SeekframeError('internal-error', 'Preparing a preview file failed unexpectedly.', { retryable: true });
    return { ok: false, status: statusOf(failure.code), error: failure.toJSON() };
  }
}

process.stdout.write(JSON.stringify(await main()));
