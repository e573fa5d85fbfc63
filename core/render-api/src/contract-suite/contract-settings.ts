import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { call, customHtml, pollUntilDone, post, probeVideo, RENDER_TEST_MS } from './contract-http.js';
import { expectError } from './contract-routes.js';
import { has, useTarget, type RenderApiContractOptions } from './run-render-api-contract.js';

const TOKEN = 'contract-token-5b1f0c';

/** Behaviour that depends on a deployment's settings: token, custom html, capacity, limits, retention. */
export function defineSettingsContract(options: RenderApiContractOptions): void {
  describe('RENDER_API_TOKEN', () => {
    const base = useTarget(options, { token: TOKEN });

    it('every API route needs the bearer token (401 unauthorized); the preview page and the API description do not', async () => {
      expectError(await call(base(), '/api/composition'), 401, 'unauthorized');
      expectError(await call(base(), '/api/composition', { token: 'wrong-token' }), 401, 'unauthorized');
      expectError(await call(base(), '/api/composition', { token: `${TOKEN}x` }), 401, 'unauthorized');
      expectError(await call(base(), '/api/composition', { headers: { authorization: TOKEN } }), 401, 'unauthorized');
      expectError(await post(base(), { variables: {} }), 401, 'unauthorized');
      expectError(await call(base(), '/api/render/anything'), 401, 'unauthorized');
      expectError(await call(base(), '/api/render/anything', { method: 'DELETE' }), 401, 'unauthorized');
      expect((await call(base(), '/api/composition', { token: TOKEN })).status).toBe(200);
      expect((await call(base(), '/api/render/anything', { token: TOKEN })).status).toBe(404);
      if (has(options, 'previewPage')) {
        expect((await call(base(), '/')).status).toBe(200);
        expect((await call(base(), '/preview/app.js')).status).toBe(200);
      }
      // It describes the API and holds no data: a client reads it before it has a token.
      expect((await call(base(), '/api/openapi.json')).status).toBe(200);
    });
  });

  if (has(options, 'customHtml')) {
    describe('ALLOW_CUSTOM_HTML=true', () => {
      const base = useTarget(options, { allowCustomHtml: true });

      it(
        'renders a posted html composition, its variables checked against its own declarations',
        async () => {
          expectError(await post(base(), { html: customHtml(), variables: { title: 'not declared here' } }), 400, 'invalid-variables');
          const started = await post(base(), { html: customHtml(), variables: { label: 'ok' } }, { prefer: 'respond-async' });
          expect(started.status).toBe(202);
          const { final } = await pollUntilDone(base(), started.json.statusUrl);
          expect(final.status, `the render ended: ${JSON.stringify(final.json)}`).toBe(200);
          expect(await probeVideo(final.bytes)).toMatchObject({ width: 96, height: 64, frames: 5 });
        },
        RENDER_TEST_MS,
      );

      it(
        'renders in the network sandbox: a posted page cannot reach a server on this machine',
        async () => {
          await withSecretServer(async (port, hits) => {
            const started = await post(
              base(),
              { html: customHtml({ probeUrl: `http://127.0.0.1:${port}/secret` }) },
              { prefer: 'respond-async' },
            );
            expect(started.status).toBe(202);
            const { final } = await pollUntilDone(base(), started.json.statusUrl);
            // Done (refused requests may fail the render); what matters is that none arrived.
            expect(final.status).not.toBe(202);
            expect(hits).toEqual([]);
          });
        },
        RENDER_TEST_MS,
      );

      it('a posted document whose sub-composition is ../../etc/passwd, file:///... or a loopback URL: 400 invalid-composition at once, naming the reason, no server path', async () => {
        await withSecretServer(async (port, hits) => {
          const cases: [string, RegExp][] = [
            ['../../etc/passwd', /leaves the document's folder/],
            ['file:///etc/passwd', /file: URL/],
            [`http://127.0.0.1:${port}/child.html`, /server's own machine or network/],
          ];
          for (const [src, reason] of cases) {
            const html = customHtml().replace(
              '<div id="l"></div>',
              `<div id="l"></div><div data-composition-id="sub" data-composition-src="${src}" data-start="0" data-duration="0.5"></div>`,
            );
            const answer = await post(base(), { html }, { prefer: 'respond-async' });
            expectError(answer, 400, 'invalid-composition');
            expect(answer.json.error.message).toMatch(reason);
            // No absolute server path in what the client reads (the src it sent is its own text).
            expect(answer.json.error.message.replace(src, '')).not.toMatch(/(^|[\s"'(])\/(tmp|srv|home|var|opt|work|root|Users)\//);
          }
          expect(hits).toEqual([]);
        });
      });

      it('a posted document that is no composition is 400 invalid-composition', async () => {
        expectError(await post(base(), { html: '<!doctype html><p>no root</p>' }), 400, 'invalid-composition');
      });

      it(
        'a render that fails answers its error (page-script-error) with a 5xx on the status URL',
        async () => {
          const started = await post(base(), { html: customHtml({ throwInScript: true }) }, { prefer: 'respond-async' });
          expect(started.status).toBe(202);
          const { final } = await pollUntilDone(base(), started.json.statusUrl);
          expect(final.status).toBeGreaterThanOrEqual(500);
          expect(final.json.error).toMatchObject({ code: 'page-script-error', retryable: expect.any(Boolean) });
        },
        RENDER_TEST_MS,
      );
    });
  }
  if (has(options, 'maxConcurrentRenders')) {
    describe('RENDER_MAX_CONCURRENT=1', () => {
      const base = useTarget(options, { maxConcurrentRenders: 1 });

      it(
        '429 too-many-renders with Retry-After while one render runs; a retry with the same Idempotency-Key is not refused',
        async () => {
          const first = await post(
            base(),
            { variables: { title: 'Busy', hold: true } },
            { prefer: 'respond-async', 'idempotency-key': 'capacity-1' },
          );
          expect(first.status).toBe(202);
          const second = await post(base(), { variables: { title: 'Too many' } }, { prefer: 'respond-async' });
          expectError(second, 429, 'too-many-renders');
          expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(second.json.error.retryable).toBe(true);
          const retry = await post(
            base(),
            { variables: { title: 'Busy', hold: true } },
            { prefer: 'respond-async', 'idempotency-key': 'capacity-1' },
          );
          expect({ status: retry.status, id: retry.json.id }).toEqual({ status: 202, id: first.json.id });
          expect((await call(base(), first.json.statusUrl, { method: 'DELETE' })).status).toBe(202);
        },
        RENDER_TEST_MS,
      );
    });
  }
  describe('RENDER_MAX_FRAMES=50', () => {
    const base = useTarget(options, { maxFrames: 50 });

    it('a render over the frame limit is refused before it starts: 400 limit-exceeded', async () => {
      const answer = await post(base(), { fps: 60 });
      expectError(answer, 400, 'limit-exceeded');
      expect(answer.json.error.details).toMatchObject({ limit: 'maxFrames', value: 60, max: 50 });
    });
  });

  if (has(options, 'maxMemory') && has(options, 'customHtml')) {
    describe('RENDER_MAX_MEMORY_MB=600 (with ALLOW_CUSTOM_HTML=true)', () => {
      const base = useTarget(options, { maxMemoryMB: 600, allowCustomHtml: true });

      it(
        'a posted page that fills memory is stopped: memory-limit-exceeded with a 5xx on the status URL',
        async () => {
          const started = await post(base(), { html: customHtml({ fillMemory: true }) }, { prefer: 'respond-async' });
          expect(started.status).toBe(202);
          const { final } = await pollUntilDone(base(), started.json.statusUrl);
          expect(final.status).toBeGreaterThanOrEqual(500);
          expect(final.json.error).toMatchObject({ code: 'memory-limit-exceeded', retryable: false, details: { max: 600 } });
        },
        RENDER_TEST_MS,
      );
    });
  }
  if (has(options, 'retentionSeconds')) {
    describe('RENDER_RETENTION_SECONDS=1', () => {
      const base = useTarget(options, { retentionSeconds: 1 });

      it(
        'a render past its retention answers 410 render-expired',
        async () => {
          const started = await post(base(), { variables: { title: 'Old' } }, { prefer: 'respond-async' });
          expect(started.status).toBe(202);
          const deadline = Date.now() + 30_000;
          let answer = await call(base(), started.json.statusUrl);
          while (answer.status !== 410 && Date.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 300));
            answer = await call(base(), started.json.statusUrl);
          }
          expectError(answer, 410, 'render-expired');
        },
        RENDER_TEST_MS,
      );
    });
  }
}

/** Runs `test` with a "secret" server on a loopback port that records every request it gets. */
async function withSecretServer(test: (port: number, hits: string[]) => Promise<void>): Promise<void> {
  const hits: string[] = [];
  const secret = createServer((request, response) => {
    hits.push(request.url ?? '');
    response.end('secret');
  });
  await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
  try {
    await test((secret.address() as AddressInfo).port, hits);
  } finally {
    await new Promise((resolve) => secret.close(resolve));
  }
}
