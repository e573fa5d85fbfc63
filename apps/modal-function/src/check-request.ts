/**
 * The render API's request checks for the Python app (src/app.py), run as
 * `node dist/check-request.mjs` with one JSON object on stdin:
 *   {mode:'composition', compositionFile}                -> {ok:true, info}
 *   {mode:'render', compositionFile, body, allowCustomHtml, limits} -> {ok:true, request, totalFrames, bodyHash}
 * and on a refusal {ok:false, status, error}. So the Python template refuses exactly what
 * @seekframe/render-api refuses, with the same codes and words (one copy of the rules).
 */
import { readFile } from 'node:fs/promises';
import { extractCompositionMetadata, SeekframeError } from '@seekframe/composition';
import { checkRenderRequest, compositionInfo, DEFAULT_LIMITS, statusOf } from '@seekframe/render-api';

interface Input {
  mode: 'composition' | 'render';
  compositionFile: string;
  body?: string;
  allowCustomHtml?: boolean;
  limits?: { maxFrames?: number; maxPixels?: number; maxHtmlBytes?: number };
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
      throw new SeekframeError('invalid-composition', "The template's composition has no index.html; check PREVIEW_COMPOSITION.", { stage: 'load' });
    });
    return extractCompositionMetadata(html, { file: 'index.html' });
  };
  try {
    if (input.mode === 'composition') return { ok: true, info: compositionInfo(await composition()) };
    const checked = await checkRenderRequest(input.body ?? '', {
      composition,
      allowCustomHtml: input.allowCustomHtml ?? false,
      limits: { ...DEFAULT_LIMITS, ...input.limits },
    });
    return { ok: true, ...checked };
  } catch (error) {
    const failure = error instanceof SeekframeError ? error : new SeekframeError('internal-error', 'The request check failed unexpectedly.', { retryable: true });
    return { ok: false, status: statusOf(failure.code), error: failure.toJSON() };
  }
}

process.stdout.write(JSON.stringify(await main()));
