/**
 * The render API's request checks for the Python app (src/app.py), run as
 * `node dist/check-request.mjs` with one JSON object on stdin:
 *   {mode:'composition', compositionFile}                -> {ok:true, info}
 *   {mode:'render', compositionFile, body, allowCustomHtml, limits, webhooks?}
 *                                          -> {ok:true, request, totalFrames, bodyHash, webhookTarget?}
 * and on a refusal {ok:false, status, error}. `webhooks` is present when RENDER_WEBHOOK_SECRET is
 * set (the secret itself stays in Python): a webhook is then accepted by its shape here, and
 * `webhookTarget` is its URL as WHATWG URL parsing reads it; the Python app resolves that host and
 * refuses a private address (webhook_addresses.py), the same rule and code its deliveries use. So the Python template refuses exactly what
 * @seekframe/render-api refuses, with the same codes and words (one copy of the rules).
 */
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { extractCompositionMetadata, SeekframeError } from '@seekframe/composition';
import { checkRenderRequest, compositionInfo, compositionPreflight, DEFAULT_LIMITS, statusOf } from '@seekframe/render-api';

interface Input {
  mode: 'composition' | 'render';
  compositionFile: string;
  body?: string;
  allowCustomHtml?: boolean;
  limits?: { maxFrames?: number; maxPixels?: number; maxHtmlBytes?: number };
  /** Present when RENDER_WEBHOOK_SECRET is set. */
  webhooks?: Record<string, never>;
}

/** Where a delivery goes, as `new URL()` reads the webhook URL (the parse the address check used). */
function webhookTarget(url: string) {
  const parsed = new URL(url);
  const scheme = parsed.protocol === 'https:' ? 'https' : 'http';
  return {
    scheme,
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    hostLabel: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : scheme === 'https' ? 443 : 80,
    path: `${parsed.pathname}${parsed.search}`,
  };
}

/**
 * The composition folder as the render API's FileSource: files whose real path is inside it (the
 * render is sandboxed, so a link out is no file of it). Here rather than `@seekframe/render-api/node`'s
 * folderSource, whose module brings the local runner and its browser with it into this one-file script.
 */
function compositionFolder(dir: string) {
  return {
    async read(relative: string) {
      const root = await realpath(dir);
      const real = await realpath(path.resolve(root, relative)).catch(() => null);
      if (!real || !real.startsWith(`${root}${path.sep}`)) return null;
      const body = await readFile(real).catch(() => null);
      return body ? { body: new Uint8Array(body) } : null;
    },
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<unknown> {
  const input = JSON.parse(await readStdin()) as Input;
  const composition = async () => {
    const html = await readFile(input.compositionFile, 'utf8').catch(() => {
      throw new SeekframeError('invalid-composition', "The template's composition has no index.html; check PREVIEW_COMPOSITION.", {
        stage: 'load',
      });
    });
    return extractCompositionMetadata(html, { file: 'index.html' });
  };
  try {
    if (input.mode === 'composition') return { ok: true, info: compositionInfo(await composition()) };
    const checked = await checkRenderRequest(input.body ?? '', {
      composition,
      // The same preflight as every face (lint's rules and the files the pages load), on the folder the render renders.
      preflight: compositionPreflight(compositionFolder(path.dirname(input.compositionFile))),
      allowCustomHtml: input.allowCustomHtml ?? false,
      limits: { ...DEFAULT_LIMITS, ...input.limits },
      // The secret's presence is all the gate needs here (Python signs with it); the address is
      // checked by the caller after this check, which is the last one checkRenderRequest makes.
      webhooks: input.webhooks ? { secret: 'set', checkUrl: async () => undefined } : undefined,
    });
    return { ok: true, ...checked, ...(checked.request.webhook ? { webhookTarget: webhookTarget(checked.request.webhook.url) } : {}) };
  } catch (error) {
    const failure =
      error instanceof SeekframeError
        ? error
        : new SeekframeError('internal-error', 'The request check failed unexpectedly.', { retryable: true });
    return { ok: false, status: statusOf(failure.code), error: failure.toJSON() };
  }
}

process.stdout.write(JSON.stringify(await main()));
