import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBlobFake, type BlobFake } from '@seekframe/vercel-sandbox/testing';

// The Next route handlers called directly (the module's exported GET/POST with a Request), over
// the real stores: the Blob stand-in through @vercel/blob, renders in local sandboxes with the CLI.

const run = promisify(execFile);
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const REPO_ROOT = path.resolve(APP_DIR, '../..');
const BASE = 'http://template.test';

let fake: BlobFake;
let scratch: string;
const saved = { ...process.env };

type RouteModule = {
  GET: (r: Request) => Promise<Response>;
  POST: (r: Request) => Promise<Response>;
  DELETE: (r: Request) => Promise<Response>;
};
let api: RouteModule;
let root: RouteModule;

beforeAll(async () => {
  fake = await startBlobFake();
  scratch = await mkdtemp(path.join(tmpdir(), 'seekframe-vercel-routes-'));
  const composition = path.join(scratch, 'tiny');
  await mkdir(composition);
  await writeFile(
    path.join(composition, 'index.html'),
    `<!doctype html>
<html data-composition-id="tiny" data-width="160" data-height="90" data-duration="1" data-fps="10"
  data-composition-variables='[{"id":"bg","label":"Background","type":"color","default":"#203040"}]'>
<head><style>html,body{margin:0;width:160px;height:90px}</style></head>
<body><script>document.body.style.background = window.__seekframe.getVariables().bg;</script>
<div style="position:absolute;right:0;bottom:0;width:8px;height:8px;background:#fff"></div></body></html>
`,
  );
  // The in-sandbox upload script, bundled from the current sources.
  await run(process.execPath, [path.join(REPO_ROOT, 'adapters/vercel-sandbox/scripts/build-sandbox-scripts.mjs')]);
  Object.assign(process.env, {
    BLOB_READ_WRITE_TOKEN: fake.token,
    VERCEL_BLOB_API_URL: fake.apiUrl,
    SEEKFRAME_SANDBOX: 'local',
    SEEKFRAME_CLI_BIN: path.join(REPO_ROOT, 'core/cli/bin/seekframe.js'),
    SEEKFRAME_LOCAL_SANDBOX_DIR: scratch,
    PREVIEW_COMPOSITION_DIR: composition,
  });
  delete process.env.VERCEL_DEPLOYMENT_ID;
  api = (await import('../app/api/[...path]/route.js')) as RouteModule;
  root = (await import('../app/route.js')) as RouteModule;
});

afterAll(async () => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
  await fake?.close();
  await rm(scratch, { recursive: true, force: true });
});

const post = (body: unknown, headers: Record<string, string> = {}): Request =>
  new Request(`${BASE}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function probe(bytes: ArrayBuffer): Promise<{ codec_name: string; width: number; height: number; nb_read_frames: string }> {
  const file = path.join(scratch, `probe-${Date.now()}.mp4`);
  await writeFile(file, Buffer.from(bytes));
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=codec_name,width,height,nb_read_frames',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout).streams[0];
}

describe('route handlers of the Vercel template', () => {
  it('GET / is the preview page (with its CSP) and /api/composition describes the composition', async () => {
    const page = await root.GET(new Request(`${BASE}/`));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'/);
    expect(await page.text()).toMatch(/seekframe-player/);
    const info = await api.GET(new Request(`${BASE}/api/composition`));
    expect(await info.json()).toMatchObject({ id: 'tiny', width: 160, height: 90, fps: 10, duration: 1, variables: [{ id: 'bg' }] });
  });

  it('GET /api/openapi.json, through the Next catch-all route, is the render API document (sync mode)', async () => {
    const answer = await api.GET(new Request(`${BASE}/api/openapi.json`));
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as { openapi: string; paths: Record<string, { post?: { responses: Record<string, unknown> } }> };
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(document.paths['/api/render']?.post?.responses ?? {})).toEqual(expect.arrayContaining(['200', '202', '400']));
  });

  it('POST /api/render answers {url, key, durationMs} once the MP4 is in Blob', async () => {
    const response = await api.POST(post({ variables: { bg: '#ff0000' } }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { url: string; key: string; durationMs: number };
    expect(body).toMatchObject({ key: expect.stringMatching(/^renders\/.+\.mp4$/), durationMs: expect.any(Number) });
    // The URL is the blob's own (the video never passes through the function).
    expect(body.url.startsWith(fake.apiUrl.replace(/\/api$/, ''))).toBe(true);
    expect(fake.pathnames()).toContain(body.key);
    expect(await probe(await (await fetch(body.url)).arrayBuffer())).toMatchObject({
      codec_name: 'h264',
      width: 160,
      height: 90,
      nb_read_frames: '10',
    });
    expect(fake.pathnames().some((p) => p.startsWith('jobs/'))).toBe(true);
  });

  it('Prefer: respond-async gives 202 + Location, then polling ends in a redirect to the blob', async () => {
    const response = await api.POST(post({}, { prefer: 'respond-async' }));
    expect(response.status).toBe(202);
    const { id, statusUrl } = (await response.json()) as { id: string; statusUrl: string };
    expect(response.headers.get('location')).toBe(statusUrl);
    let status = 202;
    let last: Response | undefined;
    for (let i = 0; i < 600 && status === 202; i += 1) {
      last = await api.GET(new Request(new URL(statusUrl, BASE)));
      status = last.status;
      if (status === 202) {
        expect(last.headers.get('retry-after')).toBeTruthy();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    expect(status).toBe(302);
    expect(last?.headers.get('location')).toMatch(new RegExp(`/store/renders/${id}\\.mp4$`));
  });

  it('strict variables: an undeclared id is a 400 in the contract error shape', async () => {
    const response = await api.POST(post({ variables: { nope: 1 } }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid-variables', message: expect.any(String), retryable: false } });
  });

  it('RENDER_API_TOKEN only in process.env (the app passes no settings): 401 without the token, served with it', async () => {
    vi.resetModules();
    process.env.RENDER_API_TOKEN = 'vercel-env-token-2d';
    try {
      const fresh = (await import('../app/api/[...path]/route.js')) as RouteModule;
      const without = await fresh.GET(new Request(`${BASE}/api/composition`));
      expect(without.status).toBe(401);
      expect(await without.json()).toMatchObject({ error: { code: 'unauthorized' } });
      expect((await fresh.POST(post({}))).status).toBe(401);
      const withToken = await fresh.GET(
        new Request(`${BASE}/api/composition`, { headers: { authorization: 'Bearer vercel-env-token-2d' } }),
      );
      expect(withToken.status).toBe(200);
    } finally {
      delete process.env.RENDER_API_TOKEN;
    }
  });

  it('a blank RENDER_API_TOKEN or a malformed setting: every route answers its error (invalid-server-options), nothing is served', async () => {
    for (const [name, value] of [
      ['RENDER_API_TOKEN', ' '],
      ['BLOB_ACCESS', 'privat'],
      ['RENDER_WEBHOOK_ALLOW_LOOPBACK', 'yes'],
    ] as const) {
      vi.resetModules();
      process.env[name] = value;
      try {
        const fresh = (await import('../app/api/[...path]/route.js')) as RouteModule;
        const freshRoot = (await import('../app/route.js')) as RouteModule;
        for (const answer of [await fresh.GET(new Request(`${BASE}/api/composition`)), await freshRoot.GET(new Request(`${BASE}/`))]) {
          expect(answer.status, name).toBe(500);
          expect(await answer.json(), name).toMatchObject({ error: { code: 'invalid-server-options', details: { variable: name } } });
        }
      } finally {
        delete process.env[name];
      }
    }
  });

  it('without BLOB_READ_WRITE_TOKEN every route says how to fix it, as a JSON error', async () => {
    vi.resetModules();
    const token = process.env.BLOB_READ_WRITE_TOKEN;
    delete process.env.BLOB_READ_WRITE_TOKEN;
    try {
      const fresh = (await import('../app/api/[...path]/route.js')) as RouteModule;
      const response = await fresh.GET(new Request(`${BASE}/api/composition`));
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(await response.json()).toMatchObject({
        error: { code: 'invalid-server-options', message: expect.stringMatching(/BLOB_READ_WRITE_TOKEN is not set/) },
      });
    } finally {
      process.env.BLOB_READ_WRITE_TOKEN = token;
    }
  });
});
