import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFolderStorage } from '@seekframe/producer';
import { buildWebhookEvent, failedData, WEBHOOK_EVENT_TYPES } from '@seekframe/producer/webhooks';
import { createRenderApi } from './create-render-api.js';
import { createMemoryJobStore } from './memory-job-store.js';
import { OPENAPI_PATH, renderApiDocument } from './openapi-document.js';
import type { FileSource, ObjectStore, RenderRunner } from './ports.js';
import type { AnswerMode, RenderApiOptions } from './render-api-options.js';

const COMPOSITION = `<html data-composition-id="doc" data-width="160" data-height="90" data-duration="1" data-fps="10"
  data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"a","maxLength":24}]'></html>`;
const composition: FileSource = { read: async (name) => (name === 'index.html' ? { body: COMPOSITION } : null) };

let scratch: string;
let objects: ObjectStore;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'seekframe-openapi-'));
  objects = createLocalFolderStorage({ root: scratch });
});
afterAll(async () => {
  // A render answered 202 may still be writing its file: rm retries.
  await rm(scratch, { recursive: true, force: true, maxRetries: 5 });
});

/** A runner that stores a small file at once (the document is about the API, not the render). */
function storingRunner(): RenderRunner {
  return {
    async start(job) {
      await objects.put(job.outputKey, 'MP4DATA-0123456789', { contentType: job.contentType });
      return { kind: 'stored', durationMs: 5, size: 18 };
    },
    async cancel() {},
  };
}

function app(answerMode: AnswerMode, extra: Partial<RenderApiOptions> = {}) {
  return createRenderApi({ runner: storingRunner(), jobs: createMemoryJobStore(), objects, composition, answerMode, ...extra });
}

/** The document as GET /api/openapi.json sends it (and a copy: the parser dereferences in place). */
function asServed(document: ReturnType<typeof renderApiDocument>): any {
  return JSON.parse(JSON.stringify(document));
}

/** `METHOD /path/{param}` of every route the Hono app really mounts (middleware excluded). */
function mountedRoutes(answerMode: AnswerMode): string[] {
  const routes = app(answerMode).routes.filter((route) => route.method !== 'ALL');
  const asOpenApi = (honoPath: string) =>
    honoPath
      .replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, '{$1}') // :id and :asset{regex} -> {id}, {asset}
      .replace(/\/\*$/, '/{path}'); // a wildcard tail is one `path` parameter
  return [...new Set(routes.map((route) => `${route.method} ${asOpenApi(route.path)}`))].sort();
}

function documentedRoutes(document: ReturnType<typeof renderApiDocument>): string[] {
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
  return Object.entries(document.paths ?? {})
    .flatMap(([route, item]) => methods.filter((method) => item[method]).map((method) => `${method.toUpperCase()} ${route}`))
    .sort();
}

describe('renderApiDocument', () => {
  for (const answerMode of ['sync', 'call-id'] as const) {
    it(`is a valid OpenAPI 3.1 document (answer mode ${answerMode}), by @readme/openapi-parser`, async () => {
      const document = renderApiDocument({ answerMode });
      expect(document.openapi).toMatch(/^3\.1\.\d+$/);
      const result = await validate(asServed(document));
      expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    });

    it(`lists exactly the routes the Hono app mounts (answer mode ${answerMode})`, () => {
      expect(documentedRoutes(renderApiDocument({ answerMode }))).toEqual(mountedRoutes(answerMode));
    });
  }

  it('the route comparison sees the mode-dependent route: /renders/{name} only in call-id mode', () => {
    expect(mountedRoutes('call-id')).toContain('HEAD /renders/{name}');
    expect(mountedRoutes('sync')).not.toContain('GET /renders/{name}');
    expect(mountedRoutes('sync')).toContain('GET /preview/{asset}');
  });

  it('the request body schema is RenderBodySchema: strict, the formats and the fps range', () => {
    const body = renderApiDocument({ answerMode: 'sync' }).components?.schemas?.RenderBody as {
      additionalProperties: unknown;
      properties: Record<string, { enum?: string[]; minimum?: number; maximum?: number }>;
    };
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.format?.enum).toEqual(['mp4', 'webm', 'mov', 'gif']);
    expect([body.properties.fps?.minimum, body.properties.fps?.maximum]).toEqual([1, 240]);
    expect(Object.keys(body.properties).sort()).toEqual(['format', 'fps', 'frames', 'html', 'quality', 'still', 'variables', 'webhook']);
  });

  it('frames is described as the request sends it: "30-59" or {start, end}', () => {
    const body = renderApiDocument({ answerMode: 'sync' }).components?.schemas?.RenderBody as {
      properties: Record<string, { anyOf?: { type?: string; properties?: Record<string, unknown> }[]; description?: string }>;
    };
    const frames = body.properties.frames;
    expect(frames?.anyOf?.map((choice) => choice.type)).toEqual(['string', 'object']);
    expect(Object.keys(frames?.anyOf?.[1]?.properties ?? {})).toEqual(['start', 'end']);
    expect(frames?.description).toContain('both included');
  });
});

describe(`GET ${OPENAPI_PATH}`, () => {
  it('answers the document without a token where every other /api route needs one', async () => {
    const guarded = app('sync', { token: 'secret-token' });
    const answer = await guarded.request(OPENAPI_PATH);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/application\/json/);
    expect(await answer.json()).toEqual(asServed(renderApiDocument({ answerMode: 'sync' })));
    expect((await guarded.request('/api/composition')).status).toBe(401);
    expect((await guarded.request('/api/composition', { headers: { authorization: 'Bearer secret-token' } })).status).toBe(200);
  });
});

/**
 * What the app really answers, checked against the schema the document gives for that route,
 * status and media type (Ajv, JSON Schema 2020-12, the dialect of OpenAPI 3.1): the document
 * describes the answers, not only itself.
 */
describe('the document describes the real answers', () => {
  for (const answerMode of ['sync', 'call-id'] as const) {
    it(`POST, poll, JSON result, cancel and errors conform (answer mode ${answerMode})`, async () => {
      const api = app(answerMode, {
        newId: (() => {
          let n = 0;
          return () => `doc-${answerMode}-${++n}`;
        })(),
      });
      const document = (await dereference(asServed(renderApiDocument({ answerMode })))) as any;
      const ajv = new Ajv2020({ strict: false });
      ajv.addFormat('binary', true);
      const conforms = async (route: string, method: string, answer: Response) => {
        const type = (answer.headers.get('content-type') ?? '').split(';')[0]!;
        const schema = document.paths[route][method].responses[String(answer.status)]?.content?.[type]?.schema;
        const body = await answer.json();
        expect({ route, method, status: answer.status, type, documented: schema !== undefined }).toEqual({
          route,
          method,
          status: answer.status,
          type,
          documented: true,
        });
        const check = ajv.compile(schema);
        expect({ route, status: answer.status, body, errors: check(body) ? null : check.errors }).toEqual({
          route,
          status: answer.status,
          body,
          errors: null,
        });
        return body;
      };
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        api.request('/api/render', {
          method: 'POST',
          body: JSON.stringify(body),
          headers: { 'content-type': 'application/json', ...headers },
        });

      await conforms('/api/composition', 'get', await api.request('/api/composition'));
      const started = await conforms('/api/render', 'post', await post({ variables: { title: 'Hi' } }));
      const id = started.call_id ?? started.id;
      await conforms('/api/render/{id}', 'get', await api.request(`/api/render/${id}`, { headers: { accept: 'application/json' } }));
      const accepted = await conforms('/api/render', 'post', await post({}, { prefer: 'respond-async' }));
      // Errors: each with the status its code has, in the one error body.
      await conforms('/api/render', 'post', await post({ colour: 'red' }));
      await conforms('/api/render', 'post', await post({ variables: { title: 'x'.repeat(30) } }));
      await conforms('/api/render/{id}', 'get', await api.request('/api/render/no-such-render'));
      await conforms('/api/render/{id}', 'delete', await api.request(`/api/render/${id}`, { method: 'DELETE' }));
      expect(accepted.statusUrl).toBe(`/api/render/${accepted.id}`);
    });
  }

  it('a running render answers 202 with JobProgress, and its DELETE 202 RenderCancelled', async () => {
    const never: RenderRunner = { start: () => new Promise(() => {}), cancel: async () => {} };
    const api = app('sync', { runner: never, newId: () => 'doc-running' });
    const document = (await dereference(asServed(renderApiDocument({ answerMode: 'sync' })))) as any;
    const ajv = new Ajv2020({ strict: false });
    const accepted = await api.request('/api/render', { method: 'POST', body: '{}', headers: { prefer: 'respond-async' } });
    expect(accepted.status).toBe(202);
    const progress = await api.request('/api/render/doc-running');
    expect(progress.status).toBe(202);
    const progressSchema = ajv.compile(document.paths['/api/render/{id}'].get.responses['202'].content['application/json'].schema);
    const progressBody = await progress.json();
    expect({ body: progressBody, errors: progressSchema(progressBody) ? null : progressSchema.errors }).toEqual({
      body: progressBody,
      errors: null,
    });
    const cancelled = await api.request('/api/render/doc-running', { method: 'DELETE' });
    expect(cancelled.status).toBe(202);
    const cancelSchema = ajv.compile(document.paths['/api/render/{id}'].delete.responses['202'].content['application/json'].schema);
    const cancelBody = await cancelled.json();
    expect({ body: cancelBody, errors: cancelSchema(cancelBody) ? null : cancelSchema.errors }).toEqual({ body: cancelBody, errors: null });
  });
});

describe('the webhooks section', () => {
  it('has one valid entry per event type, and each describes the event the senders build (buildWebhookEvent)', async () => {
    const document = (await dereference(asServed(renderApiDocument({ answerMode: 'sync' })))) as any;
    expect(Object.keys(document.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const ajv = new Ajv2020({ strict: false });
    const events = [
      buildWebhookEvent({ renderId: 'r1', type: 'render.started', data: {} }),
      buildWebhookEvent({
        renderId: 'r1',
        customData: { order: 'A-17' },
        type: 'render.progress',
        data: { progress: 0.5, stage: 'capture', framesRendered: 5, totalFrames: 10 },
      }),
      buildWebhookEvent({
        renderId: 'r1',
        type: 'render.completed',
        data: { url: 'https://example.test/r1.mp4', size: 10, durationMs: 20, frames: 10 },
      }),
      buildWebhookEvent({
        renderId: 'r1',
        type: 'render.failed',
        data: failedData({ code: 'page-script-error', message: 'boom', stage: 'load', retryable: false }),
      }),
    ];
    for (const event of events) {
      const check = ajv.compile(document.webhooks[event.type].post.requestBody.content['application/json'].schema);
      expect({ type: event.type, errors: check(JSON.parse(JSON.stringify(event))) ? null : check.errors }).toEqual({
        type: event.type,
        errors: null,
      });
    }
    // And refuses what is not an event of its type: a completed event under render.failed.
    const failed = ajv.compile(document.webhooks['render.failed'].post.requestBody.content['application/json'].schema);
    expect(failed(JSON.parse(JSON.stringify(events[2])))).toBe(false);
  });
});
