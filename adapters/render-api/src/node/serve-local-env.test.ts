import { afterEach, describe, expect, it } from 'vitest';
import { checkoutCli } from '../contract-suite/checkout-cli.js';
import { contractCompositionDir } from './contract-composition.js';
import { serveLocal, type LocalRenderApi } from './serve-local.js';

/**
 * serveLocal as the templates page shows it (no `env`, no token in code): its settings come from
 * the process environment, as a user who exports RENDER_API_TOKEN in the shell expects. Nothing
 * renders here: the routes answer before a render would start.
 */
const NAMES = ['RENDER_API_TOKEN', 'RENDER_WEBHOOK_SECRET', 'RENDER_WEBHOOK_ALLOW_LOOPBACK', 'RENDER_MAX_FRAMES'];
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
let api: LocalRenderApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const start = () => serveLocal({ compositionDir: contractCompositionDir(), runner: { cli: checkoutCli() } });

describe('serveLocal: settings from the process environment by default', () => {
  it('RENDER_API_TOKEN only in process.env: every API route answers 401 without it and serves with it', async () => {
    process.env.RENDER_API_TOKEN = 'shell-token-51c2';
    api = await start();
    const unauthorized = await fetch(`${api.url}/api/composition`);
    expect(unauthorized.status).toBe(401);
    expect(((await unauthorized.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    const post = await fetch(`${api.url}/api/render`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(post.status).toBe(401);
    await post.arrayBuffer();
    const authorized = await fetch(`${api.url}/api/composition`, { headers: { authorization: 'Bearer shell-token-51c2' } });
    expect(authorized.status).toBe(200);
    expect(((await authorized.json()) as { id: string }).id).toBe('contract-card');
  });

  it('RENDER_WEBHOOK_SECRET only in process.env: a webhook is checked (refused for its address), not refused as "secret missing"', async () => {
    process.env.RENDER_WEBHOOK_SECRET = 'shell-secret-0a9d';
    api = await start();
    // A private literal: refused by its class, no lookup and no traffic.
    const answer = await fetch(`${api.url}/api/render`, {
      method: 'POST',
      body: JSON.stringify({ webhook: { url: 'http://10.0.0.1/hook' } }),
      headers: { 'content-type': 'application/json' },
    });
    const body = (await answer.json()) as { error: { code: string; details: unknown } };
    expect(answer.status).toBe(400);
    expect(body.error).toMatchObject({ code: 'invalid-options', details: { field: 'webhook.url' } });
  });

  it.each([
    ['RENDER_API_TOKEN', ' '],
    ['RENDER_API_TOKEN', ''],
    ['RENDER_WEBHOOK_SECRET', ''],
    ['RENDER_WEBHOOK_ALLOW_LOOPBACK', 'yes'],
    ['RENDER_MAX_FRAMES', 'many'],
  ])('%s=%j in process.env refuses the start, naming it', async (name, value) => {
    process.env[name] = value;
    await expect(start()).rejects.toMatchObject({ code: 'invalid-server-options', details: { variable: name } });
  });
});
