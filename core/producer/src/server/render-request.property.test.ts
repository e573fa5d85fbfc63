import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, httpStatusOf, SeekframeError } from '@seekframe/composition';
import { compositionDocument, looseValue, variableValues } from '../../../../scripts/composition-arbitraries.js';
import { checkProperty } from '../../../../scripts/property-runs.js';
import { SERVER_RENDER_LIMITS } from '../plan/render-limits.js';
import { preflightRender } from './preflight-render.js';
import { parseRenderRequest } from './render-request.js';

/**
 * `seekframe serve`'s request path before a slot is taken (what POST /render and POST
 * /render/stream run on a body): shape, render options, then lint, metadata and limits of the
 * composition, inline `html` or a project under the root. Generated bodies end in a passing
 * request or a SeekframeError whose code answers 4xx, never anything else (no browser here).
 */
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'seekframe-request-fuzz-'));
  await mkdir(path.join(root, 'ok'));
  await writeFile(
    path.join(root, 'ok', 'index.html'),
    '<html data-composition-id="c" data-width="32" data-height="32" data-duration="1"></html>',
  );
});
afterAll(async () => rm(root, { recursive: true, force: true }));

const option = fc.oneof(
  looseValue,
  fc.constantFrom('mp4', 'gif', 'webm', 'mov', 'png-sequence', 'hls', 'draft', 'high', '30', 30, 0, -1, '5M', 'auto', 4, 100),
);
const body = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record(
      {
        projectDir: fc.oneof(
          fc.constantFrom('ok', 'ok/index.html', 'missing', '../..', '/etc', 'ok/../ok', ''),
          fc.string({ maxLength: 10 }),
        ),
        html: compositionDocument,
        variables: fc.oneof(variableValues, looseValue),
        format: option,
        quality: option,
        fps: option,
        crf: option,
        videoBitrate: option,
        workers: option,
        strict: option,
        extra: option,
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

describe("seekframe serve's request checks, generated", () => {
  it('any body passes or is refused with a coded 4xx', async () => {
    await checkProperty(
      'server render request',
      fc.asyncProperty(body, async (value) => {
        try {
          const request = await parseRenderRequest(value, { root, maxHtmlBytes: 1024 * 1024 });
          await preflightRender(request, { root, limits: SERVER_RENDER_LIMITS });
        } catch (error) {
          const ok =
            error instanceof SeekframeError && (ERROR_CODES as readonly string[]).includes(error.code) && httpStatusOf(error.code) < 500;
          if (!ok)
            throw new Error(
              `${error instanceof SeekframeError ? `${error.code} (${httpStatusOf(error.code)})` : String(error)} for ${JSON.stringify(value).slice(0, 400)}`,
            );
        }
      }),
      250,
    );
  });

  it('a body that is fine passes (the property is not vacuous)', async () => {
    const request = await parseRenderRequest({ projectDir: 'ok', format: 'mp4' }, { root, maxHtmlBytes: 1024 });
    await expect(preflightRender(request, { root, limits: SERVER_RENDER_LIMITS })).resolves.toBeUndefined();
  });
});
