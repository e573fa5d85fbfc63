import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, SeekframeError } from '@seekframe/composition';
import { checkProperty } from '../../../scripts/property-runs.js';
import { createRenderApi } from './create-render-api.js';
import { createMemoryJobStore } from './memory-job-store.js';
import type { FileSource, ObjectStore, RenderRunner } from './ports.js';
import { workerWebhookUrlCheck } from './server-network-host.js';

/**
 * Generated requests to the render API, in process (`app.request`, no browser): any body, any
 * header values, any id. Every one ends in a 2xx or a coded 4xx (`{error: {code}}` with a known
 * code), never a 5xx, a throw or a hang. The runner stores a file at once, so accepted renders
 * finish; custom html is allowed, so generated documents go through its checks too.
 */
const COMPOSITION = `<html data-composition-id="fuzz" data-width="64" data-height="64" data-duration="1" data-fps="10"
  data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"a","maxLength":24},
  {"id":"size","type":"number","label":"Size","default":20,"min":10,"max":60},
  {"id":"mode","type":"enum","label":"Mode","default":"a","options":[{"value":"a","label":"A"},{"value":"b","label":"B"}]},
  {"id":"on","type":"boolean","label":"On","default":false},{"id":"tint","type":"color","label":"Tint","default":"#112233"}]'></html>`;

function app() {
  const files = new Map<string, string>();
  const objects: ObjectStore = {
    async put(key) {
      files.set(key, 'x');
      return { created: true };
    },
    async get(key) {
      return files.has(key)
        ? { body: new Response('x').body!, info: { key, size: 1, contentType: 'video/mp4', uploadedAt: new Date().toISOString() } }
        : null;
    },
    head: async (key) => (files.has(key) ? { key, size: 1, contentType: 'video/mp4', uploadedAt: new Date().toISOString() } : null),
    delete: async (key) => void files.delete(key),
    url: () => null,
  };
  const runner: RenderRunner = {
    async start(job) {
      await objects.put(job.outputKey, 'x');
      return { kind: 'stored', durationMs: 1 };
    },
    cancel: async () => undefined,
  };
  const composition: FileSource = { read: async (path) => (path === 'index.html' ? { body: COMPOSITION } : null) };
  return createRenderApi({
    env: {},
    runner,
    jobs: createMemoryJobStore(),
    objects,
    composition,
    answerMode: 'call-id',
    allowCustomHtml: true,
    maxConcurrentRenders: 1000,
    webhooks: { secret: 'fuzz-secret', checkUrl: workerWebhookUrlCheck(), send: async () => ({ status: 204 }) },
  });
}

const scalar = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const anyValue = fc.oneof(
  scalar,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom('mp4', 'gif', 'webm', 'mov', 'draft', 'high', '#fff', 'b'),
);
const html = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc
    .record({
      width: fc.oneof(fc.integer({ min: -10, max: 5000 }).map(String), fc.string({ maxLength: 5 })),
      duration: fc.oneof(fc.double({ min: -1, max: 100 }).map(String), fc.string({ maxLength: 5 })),
      vars: fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 40 })),
      body: fc.string({ maxLength: 80 }),
      src: fc.oneof(fc.constant(''), fc.constantFrom('../x.html', 'file:///etc/passwd', 'https://example.com/a.html', 'child.html')),
    })
    .map(
      (p) =>
        `<html data-composition-id="c" data-width="${p.width}" data-height="32" data-duration="${p.duration}" data-composition-variables='${p.vars.replace(/'/g, '&#39;')}'><body>${p.body}${p.src ? `<div data-composition-src="${p.src}" data-composition-id="k" data-start="0"></div>` : ''}</body></html>`,
    ),
);
const body = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record(
        {
          variables: fc.oneof(
            fc.dictionary(fc.constantFrom('title', 'size', 'mode', 'on', 'tint', 'x', '__proto__', 'constructor'), anyValue),
            anyValue,
          ),
          format: anyValue,
          quality: anyValue,
          fps: anyValue,
          html,
          webhook: fc.oneof(
            fc.record(
              {
                url: fc.oneof(fc.webUrl(), fc.constantFrom('http://127.0.0.1/x', 'http://[::]/x', 'ftp://x', 'http://10.0.0.1/')),
                customData: fc.jsonValue({ maxDepth: 2 }),
              },
              { requiredKeys: [] },
            ),
            anyValue,
          ),
          extra: anyValue,
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
  },
  { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
);
const headers = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'text/plain', '', 'application/json; charset=latin1'),
    'idempotency-key': fc.string({ maxLength: 300 }).filter((v) => /^[\x20-\x7e]*$/.test(v)),
    prefer: fc.constantFrom('respond-async', 'wait=5', ''),
    accept: fc.constantFrom('application/json', 'video/mp4', '*/*'),
  },
  { requiredKeys: [] },
);

/** An answer within a bound that only a hang would reach, then its verdict. */
async function judge(answer: Response | Promise<Response>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer to ${what} within 20 s`)), 20_000)));
  const response = await Promise.race([answer, hung]).finally(() => clearTimeout(timer));
  const text = await response.text();
  if (response.status >= 500) throw new Error(`${response.status} for ${what}: ${text.slice(0, 300)}`);
  // A HEAD answer has no body: its status is the verdict.
  if (response.status >= 400 && !what.startsWith('HEAD ')) {
    const code = (JSON.parse(text) as { error?: { code?: string } }).error?.code;
    if (!code || !(ERROR_CODES as readonly string[]).includes(code))
      throw new Error(`${response.status} without a known code for ${what}: ${text.slice(0, 300)}`);
  }
}

describe('the render API, generated requests', () => {
  it('POST /api/render with any body and headers: a 2xx or a coded 4xx, then GET and DELETE of its id as well', async () => {
    const api = app();
    await checkProperty(
      'POST /api/render',
      fc.asyncProperty(body, headers, async (text, given) => {
        const what = `POST ${JSON.stringify(given)} ${text.slice(0, 300)}`;
        const answer = await api.request('/api/render', { method: 'POST', body: text, headers: given });
        const copy = answer.clone();
        await judge(Promise.resolve(answer), what);
        const id = answer.status < 300 ? ((await copy.json()) as { call_id?: string; id?: string }) : null;
        const renderId = id?.call_id ?? id?.id;
        if (renderId) {
          await judge(api.request(`/api/render/${renderId}`, { headers: given }), `GET after ${what}`);
          await judge(api.request(`/api/render/${renderId}`, { method: 'DELETE' }), `DELETE after ${what}`);
        }
      }),
      300,
    );
  });

  it('GET and DELETE /api/render/<any id>, and any path under /api: a coded 4xx, never a 5xx', async () => {
    const api = app();
    await checkProperty(
      'ids and paths',
      fc.asyncProperty(fc.string({ maxLength: 80 }), fc.constantFrom('GET', 'DELETE', 'POST', 'PUT', 'HEAD'), async (id, method) => {
        const path = `/api/render/${encodeURIComponent(id)}`;
        await judge(api.request(path, { method }), `${method} ${path}`);
        await judge(api.request(`/api/${encodeURIComponent(id)}`, { method }), `${method} /api/${id}`);
      }),
      200,
    );
  });

  it('an unknown code would fail the property (the judge itself is checked)', async () => {
    await expect(judge(Promise.resolve(Response.json({ error: { code: 'no-such-code' } }, { status: 400 })), 'x')).rejects.toThrow(
      /known code/,
    );
    await expect(judge(Promise.resolve(new Response('boom', { status: 500 })), 'x')).rejects.toThrow(/500/);
    expect(new SeekframeError('invalid-body', 'x').code).toBe('invalid-body');
  });
});
