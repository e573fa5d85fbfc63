/**
 * The soak's steady mix, one action at a time per client: renders that finish, renders cancelled
 * (DELETE) or abandoned (the client disconnects) at a random moment, and bad requests. Each action
 * answers the outcome it saw; anything a server must never answer (a 5xx, a refused connection)
 * is counted as `unexpected` with its text. Every random choice comes from the soak's seeded
 * generator, so a run can be repeated.
 */

import { seededRandom } from '../../core/runtime/src/browser/seeded-random.js';

export type Outcome = { kind: string; status: number | string; unexpected?: string };

export type Random = () => number;

/** The runtime's seeded generator (mulberry32): the soak's moments and choices, repeatable by seed. */
export const seeded: (seed: number) => Random = seededRandom;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function judge(kind: string, status: number, expected: (status: number) => boolean, text = ''): Outcome {
  return expected(status) ? { kind, status } : { kind, status, unexpected: `${kind}: HTTP ${status} ${text.slice(0, 300)}` };
}

async function guarded(kind: string, work: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await work();
  } catch (error) {
    const message = error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : String(error);
    return { kind, status: 'error', unexpected: `${kind}: ${message}` };
  }
}

/** A POST whose client goes away after `afterMs` (mid-render, mostly): the server must cancel the render. */
function disconnect(url: string, headers: Record<string, string>, body: string, afterMs: number): Promise<Outcome> {
  return guarded('disconnect', async () => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), afterMs);
    try {
      const response = await fetch(url, { method: 'POST', headers, body, signal: abort.signal });
      await response.arrayBuffer();
      return judge('disconnect', response.status, (s) => s === 200 || s === 429);
    } catch (error) {
      if (abort.signal.aborted) return { kind: 'disconnect', status: 'aborted' };
      throw error;
    } finally {
      clearTimeout(timer);
    }
  });
}

/** Bad requests for `seekframe serve`: each must be a 4xx with the JSON error shape. */
const SERVE_BAD: readonly { name: string; path: string; method?: string; body?: string; headers?: Record<string, string> }[] = [
  { name: 'invalid-json', path: '/render', body: '{"projectDir": ' },
  { name: 'unknown-field', path: '/render', body: '{"projectDir":"tiny","colour":"red"}' },
  { name: 'outside-root', path: '/render', body: '{"projectDir":"../../etc"}' },
  { name: 'bad-fps', path: '/render', body: '{"projectDir":"tiny","fps":1000}' },
  { name: 'bad-format', path: '/render/stream', body: '{"projectDir":"tiny","format":"avi"}' },
  { name: 'both-sources', path: '/render', body: '{"projectDir":"tiny","html":"<html></html>"}' },
  { name: 'deep-json', path: '/render', body: `{"projectDir":"tiny","variables":${'['.repeat(40)}${']'.repeat(40)}}` },
  { name: 'huge-body', path: '/render', body: `{"projectDir":"tiny","variables":{"x":"${'a'.repeat(3 * 1024 * 1024)}"}}` },
  { name: 'unknown-render', path: '/render/0123456789abcdef', method: 'GET' },
  { name: 'unknown-output', path: '/outputs/not-a-token', method: 'GET' },
  { name: 'no-route', path: '/nothing-here', method: 'GET' },
  { name: 'html-lint-error', path: '/render', body: JSON.stringify({ html: '<html><body>no composition here</body></html>' }) },
];

/** One action against `seekframe serve` (projects `tiny`: 5 frames, `long`: 90 frames). */
export async function serveAction(url: string, random: Random): Promise<Outcome> {
  const roll = random();
  const json = { 'content-type': 'application/json' };
  if (roll < 0.4) {
    return guarded('render', async () => {
      const response = await fetch(`${url}/render`, {
        method: 'POST',
        headers: json,
        body: '{"projectDir":"tiny","workers":1,"quality":"draft"}',
      });
      const text = await response.text();
      if (response.status !== 200) return judge('render', response.status, () => false, text);
      const output = await fetch(`${url}${(JSON.parse(text) as { outputUrl: string }).outputUrl}`);
      const bytes = (await output.arrayBuffer()).byteLength;
      return judge('render', output.status, (s) => s === 200 && bytes > 0, `${bytes} bytes`);
    });
  }
  if (roll < 0.6) {
    // Cancel: start a detached render, DELETE it at a random moment of its life.
    return guarded('cancel', async () => {
      const response = await fetch(`${url}/render`, {
        method: 'POST',
        headers: { ...json, prefer: 'respond-async' },
        body: '{"projectDir":"long","workers":1}',
      });
      const text = await response.text();
      if (response.status !== 202) return judge('cancel', response.status, (s) => s === 429, text);
      await sleep(random() * 3000);
      const cancel = await fetch(`${url}${(JSON.parse(text) as { statusUrl: string }).statusUrl}`, { method: 'DELETE' });
      // 409 render-not-running: it finished before the DELETE arrived.
      return judge('cancel', cancel.status, (s) => s === 202 || s === 409, await cancel.text());
    });
  }
  if (roll < 0.8) {
    // Disconnect: the client goes away mid-render (stream or blocking POST); the server cancels it.
    const path = random() < 0.5 ? '/render/stream' : '/render';
    return disconnect(`${url}${path}`, json, '{"projectDir":"long","workers":1}', 200 + random() * 3000);
  }
  const bad = pick(random, SERVE_BAD);
  return guarded(`bad:${bad.name}`, async () => {
    const response = await fetch(`${url}${bad.path}`, {
      method: bad.method ?? 'POST',
      headers: { ...json, ...bad.headers },
      ...(bad.body === undefined ? {} : { body: bad.body }),
    });
    const text = await response.text();
    const coded = /"code":"[a-z-]+"/.test(text);
    return judge(`bad:${bad.name}`, response.status, (s) => s >= 400 && s < 500 && coded, text);
  });
}

/** Bad requests for the render API. */
function apiBad(
  token: string,
): readonly { name: string; path: string; method?: string; body?: string; headers?: Record<string, string> }[] {
  const auth = { authorization: `Bearer ${token}` };
  return [
    { name: 'no-token', path: '/api/composition', method: 'GET' },
    { name: 'wrong-token', path: '/api/render', body: '{}', headers: { authorization: 'Bearer nope' } },
    { name: 'invalid-json', path: '/api/render', body: '{"variables":', headers: auth },
    { name: 'undeclared-variable', path: '/api/render', body: '{"variables":{"colour":"red"}}', headers: auth },
    { name: 'variable-too-long', path: '/api/render', body: JSON.stringify({ variables: { title: 'x'.repeat(100) } }), headers: auth },
    { name: 'custom-html-off', path: '/api/render', body: '{"html":"<html></html>"}', headers: auth },
    { name: 'huge-body', path: '/api/render', body: `{"variables":{"title":"${'a'.repeat(3 * 1024 * 1024)}"}}`, headers: auth },
    { name: 'unknown-render', path: '/api/render/nope-0000', method: 'GET', headers: auth },
    { name: 'delete-unknown', path: '/api/render/nope-0000', method: 'DELETE', headers: auth },
    { name: 'long-idempotency-key', path: '/api/render', body: '{}', headers: { ...auth, 'idempotency-key': 'k'.repeat(300) } },
    { name: 'webhook-no-secret', path: '/api/render', body: '{"webhook":{"url":"https://example.com/h"}}', headers: auth },
  ];
}

/** One action against the render API (serveLocal, token from its environment). */
export async function apiAction(url: string, token: string, random: Random): Promise<Outcome> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const roll = random();
  const body = () => JSON.stringify({ variables: { title: `soak ${Math.floor(random() * 1000)}`, size: 10 + Math.floor(random() * 50) } });
  if (roll < 0.4) {
    return guarded('render', async () => {
      const response = await fetch(`${url}/api/render`, { method: 'POST', headers, body: body() });
      const text = await response.text();
      if (response.status !== 200) return judge('render', response.status, (s) => s === 429, text);
      const file = await fetch(`${url}/api/render/${(JSON.parse(text) as { id: string }).id}`, { headers });
      const bytes = (await file.arrayBuffer()).byteLength;
      return judge('render', file.status, (s) => s === 200 && bytes > 0, `${bytes} bytes`);
    });
  }
  if (roll < 0.6) {
    return guarded('cancel', async () => {
      const response = await fetch(`${url}/api/render`, { method: 'POST', headers: { ...headers, prefer: 'respond-async' }, body: body() });
      const text = await response.text();
      if (response.status !== 202) return judge('cancel', response.status, (s) => s === 429, text);
      await sleep(random() * 4000);
      const cancel = await fetch(`${url}${(JSON.parse(text) as { statusUrl: string }).statusUrl}`, { method: 'DELETE', headers });
      const answer = await cancel.text();
      // 409 render-not-running: it finished before the DELETE arrived.
      return judge('cancel', cancel.status, (s) => s === 202 || s === 409, answer);
    });
  }
  if (roll < 0.8) return disconnect(`${url}/api/render`, headers, body(), 200 + random() * 4000);
  const bad = pick(random, apiBad(token));
  return guarded(`bad:${bad.name}`, async () => {
    const response = await fetch(`${url}${bad.path}`, {
      method: bad.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...bad.headers },
      ...(bad.body === undefined ? {} : { body: bad.body }),
    });
    const text = await response.text();
    const coded = /"code":"[a-z-]+"/.test(text);
    return judge(`bad:${bad.name}`, response.status, (s) => s >= 400 && s < 500 && coded, text);
  });
}
