import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { createLambdaApiApp } from './api-app.js';
import { OPENAPI_PATH } from './openapi-document.js';
import type { RenderService } from './render-service.js';

/** Never reached by these tests: they ask only for the document and for refusals before any work. */
const service = {
  store: {},
  startWorkflow: async () => {
    throw new Error('no render in this test');
  },
  chunking: {},
  chunkTimeoutSeconds: 900,
} as unknown as RenderService;

async function served(token?: string): Promise<{ document: any; app: ReturnType<typeof createLambdaApiApp> }> {
  const app = createLambdaApiApp(service, token ? { token } : {});
  const answer = await app.request(OPENAPI_PATH);
  expect(answer.status).toBe(200);
  return { document: await answer.json(), app };
}

describe('the Lambda API OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, by @readme/openapi-parser', async () => {
    const { document } = await served();
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    const result = await validate(document);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('lists exactly the routes the Hono app mounts', async () => {
    const { document, app } = await served();
    const mounted = [...new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, '{$1}')}`))].sort();
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>)
      .flatMap(([route, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${route}`))
      .sort();
    expect(documented).toEqual(mounted);
  });

  it('is served without the token every other route needs; error codes carry the status the app answers', async () => {
    const { document, app } = await served('lambda-token');
    expect((await app.request('/api/render/abcdefgh1234')).status).toBe(401);
    expect(Object.keys(document.paths['/api/render'].post.responses)).toEqual(expect.arrayContaining(['202', '400', '401', '403', '409', '413']));
    expect(document.paths['/api/render'].post.responses['413'].description).toContain('variables-too-large');
  });
});
