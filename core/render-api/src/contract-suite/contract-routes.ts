import { describe, expect, it } from 'vitest';
import { call, post, rawGet } from './contract-http.js';
import { has, useTarget, type RenderApiContractOptions } from './run-render-api-contract.js';

/** Shape every error answer must have. */
export function expectError(answer: { status: number; json: any; headers: Headers }, status: number, code: string): void {
  expect({ status: answer.status, code: answer.json?.error?.code }).toEqual({ status, code });
  expect(typeof answer.json.error.message).toBe('string');
  expect(answer.json.error.message.length).toBeGreaterThan(10);
  expect(typeof answer.json.error.retryable).toBe('boolean');
  expect(answer.headers.get('x-request-id')).toBeTruthy();
}

/** Routes and refusals that need no render. */
export function defineRouteContract(options: RenderApiContractOptions): void {
  describe('routes without rendering', () => {
    const base = useTarget(options, {});

    it('GET /api/composition answers the composition and its declarations', async () => {
      const answer = await call(base(), '/api/composition');
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 'contract-card', width: 160, height: 90, fps: 10, duration: 1 });
      expect(answer.json.variables.map((v: { id: string; type: string }) => `${v.id}:${v.type}`)).toEqual([
        'title:string',
        'size:number',
        'hold:boolean',
      ]);
    });

    it('GET /api/openapi.json describes the API: OpenAPI 3.1 JSON with POST /api/render', async () => {
      const answer = await call(base(), '/api/openapi.json');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/application\/json/);
      expect(answer.json.openapi).toMatch(/^3\.1\.\d+$/);
      expect(answer.json.paths?.['/api/render']?.post).toBeTruthy();
    });

    it('echoes a given x-request-id and makes one up otherwise', async () => {
      const given = await call(base(), '/api/composition', { headers: { 'x-request-id': 'contract-abc-123' } });
      expect(given.headers.get('x-request-id')).toBe('contract-abc-123');
      const made = await call(base(), '/api/composition');
      expect(made.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{8,}$/);
    });

    if (has(options, 'previewPage')) {
      it('GET / is the preview page with the CSP; its script, the player and the composition files are served', async () => {
        const page = await call(base(), '/');
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toMatch(/text\/html/);
        const csp = page.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("frame-ancestors 'self'");
        expect(csp).toContain("object-src 'none'");
        const html = new TextDecoder().decode(page.bytes);
        expect(html).toContain('/preview/app.js');
        for (const asset of ['/preview/app.js', '/preview/seekframe-player.js']) {
          const answer = await call(base(), asset);
          expect({ asset, status: answer.status }).toEqual({ asset, status: 200 });
          expect(answer.headers.get('content-type')).toMatch(/javascript/);
          expect(answer.bytes.length).toBeGreaterThan(1000);
        }
        const entry = await call(base(), '/preview/composition/index.html');
        expect(entry.status).toBe(200);
        expect(new TextDecoder().decode(entry.bytes)).toContain('data-composition-id="contract-card"');
      });
    } else {
      it(`no preview page (${options.without?.previewPage}): GET / and everything under /preview/ answer 404 not-found`, async () => {
        for (const route of ['/', '/preview/app.js', '/preview/seekframe-player.js', '/preview/composition/index.html']) {
          const answer = await call(base(), route);
          expect({ route, status: answer.status, code: answer.json?.error?.code }).toEqual({ route, status: 404, code: 'not-found' });
        }
      });
    }

    it('refuses composition paths that leave its folder, however they are spelled', async () => {
      const routes = [
        '/preview/composition/..%2F..%2Fpackage.json',
        '/preview/composition/..%2f..%2fpackage.json',
        '/preview/composition/%2e%2e/%2e%2e/package.json',
        '/preview/composition/%2E%2E/%2E%2e/package.json',
        '/preview/composition/../../package.json',
        '/preview/composition/.%2e/.%2e/package.json',
        '/preview/composition/..%5C..%5Cpackage.json',
        '/preview/composition/.%2Findex.html',
        '/preview/composition/index.html%00.png',
        '/preview/composition/%2Fetc%2Fpasswd',
        '/preview/composition/missing.css',
      ];
      for (const route of routes) {
        const answer = await rawGet(base(), route);
        expect({ route, status: answer.status }).toEqual({ route, status: 404 });
        // A package.json or a system file above the composition: never a byte of it.
        expect({ route, leaked: /"dependencies"|root:x:0:0/.test(answer.body) }).toEqual({ route, leaked: false });
      }
    });

    if (options.answerMode === 'call-id') {
      it('GET /renders/<name> serves only a plain name under renders/ (404 for anything that leaves it)', async () => {
        for (const route of [
          '/renders/..%2F..%2Fpackage.json',
          '/renders/%2e%2e%2F..%2Fpackage.json',
          '/renders/%2E%2E%2Fjobs',
          '/renders/.%2e%2F.%2e%2Fetc%2Fpasswd',
          '/renders/..%5C..%5Cx',
          '/renders/.env',
          '/renders/%2Fetc%2Fpasswd',
        ]) {
          const answer = await rawGet(base(), route);
          expect({ route, status: answer.status }).toEqual({ route, status: 404 });
          expect({ route, leaked: /"dependencies"|root:x:0:0/.test(answer.body) }).toEqual({ route, leaked: false });
        }
      });
    }

    it('an unknown route is 404 not-found in the error shape', async () => {
      expectError(await call(base(), '/api/nothing-here'), 404, 'not-found');
    });

    it('400 invalid-json for a body that is not JSON', async () => {
      expectError(await post(base(), '{"variables": '), 400, 'invalid-json');
    });

    it('400 invalid-body for unknown fields, wrong option values and a non-object body', async () => {
      expectError(await post(base(), { variables: {}, colour: 'red' }), 400, 'invalid-body');
      expectError(await post(base(), { format: 'avi' }), 400, 'invalid-body');
      expectError(await post(base(), { fps: 0 }), 400, 'invalid-body');
      expectError(await post(base(), '[1,2]'), 400, 'invalid-body');
    });

    it('400 invalid-body names frames: a malformed span, and one past the last of the 10 frames', async () => {
      for (const frames of ['7-3', 'x', { start: 1 }, '9-10', 4.5]) {
        const answer = await post(base(), { frames });
        expectError(answer, 400, 'invalid-body');
        expect({ frames, fields: answer.json.error.details.problems.map((p: { field: string }) => p.field) }).toEqual({
          frames,
          fields: ['frames'],
        });
      }
      expect((await post(base(), { frames: '9-10' })).json.error.message).toContain('numbered 0-9');
    });

    if (!has(options, 'stills')) {
      it(`no stills (${options.without?.stills}): a body with still is 400 invalid-body naming still, and says where a still is made`, async () => {
        const answer = await post(base(), { still: { time: '0.45s' } });
        expectError(answer, 400, 'invalid-body');
        expect(answer.json.error.details.problems.map((p: { field: string }) => p.field)).toEqual(['still']);
        expect(answer.json.error.message).toContain('seekframe still');
      });
    } else
      it('400 invalid-body names still: a malformed one, one past the end of the 1 s composition, one with format or frames', async () => {
        const refused: unknown[] = [
          { still: { time: 'soon' } },
          { still: { time: 1, frame: 2 } },
          { still: '1s' },
          { still: { time: '1s' } },
          { still: { frame: 10 } },
          { still: { frame: 1 }, format: 'gif' },
          { still: { frame: 1 }, frames: '0-3' },
        ];
        for (const body of refused) {
          const answer = await post(base(), body);
          expectError(answer, 400, 'invalid-body');
          expect({ body, fields: answer.json.error.details.problems.map((p: { field: string }) => p.field) }).toEqual({
            body,
            fields: ['still'],
          });
        }
        expect((await post(base(), { still: { time: '1s' } })).json.error.message).toContain('past the end');
      });

    it('400 invalid-variables lists every problem at once', async () => {
      const answer = await post(base(), { variables: { title: 'x'.repeat(25), size: 61, extra: true } });
      expectError(answer, 400, 'invalid-variables');
      const problems = answer.json.error.details.problems as { id: string; kind: string }[];
      expect(problems.map((p) => `${p.id}:${p.kind}`).sort()).toEqual(['extra:undeclared', 'size:type-mismatch', 'title:type-mismatch']);
      const wrongType = await post(base(), { variables: { title: 7, size: '20' } });
      expectError(wrongType, 400, 'invalid-variables');
      expect(wrongType.json.error.details.problems).toHaveLength(2);
    });

    it('403 custom-html-disabled when the deployment does not allow html', async () => {
      expectError(
        await post(base(), { html: '<html data-width="2" data-height="2" data-duration="1"></html>' }),
        403,
        'custom-html-disabled',
      );
    });

    it('413 body-too-large over 2 MiB', async () => {
      const answer = await post(base(), { variables: { title: 'x'.repeat(2 * 1024 * 1024 + 10) } });
      expectError(answer, 413, 'body-too-large');
    });

    it('404 render-not-found for an unknown id, on GET and DELETE', async () => {
      expectError(await call(base(), '/api/render/no-such-render'), 404, 'render-not-found');
      expectError(await call(base(), '/api/render/no-such-render', { method: 'DELETE' }), 404, 'render-not-found');
    });
  });
}
