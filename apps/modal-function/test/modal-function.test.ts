import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_DOCS, ERROR_HTTP_STATUS, relativePathProblem } from '@seekframe/composition';
import { verifyWebhook } from '@seekframe/producer/webhooks';
import {
  checkoutCli,
  contractSettingsEnv,
  defineWebhookContract,
  freePort,
  probeVideo,
  rawGet,
  runRenderApiContract,
  startWebhookReceiver,
} from '@seekframe/render-api/contract-suite';
import { renderApiDocument } from '@seekframe/render-api';
import { contractCompositionDir, nodePreviewAssets } from '@seekframe/render-api/node';
import { startTwin } from '../src/twin.js';
import { APP_DIR, PYTHON, startPythonApp } from './start-python-app.js';

const run = promisify(execFile);
const CLI = checkoutCli();

beforeAll(async () => {
  // dist/check-request.mjs and dist/preview/ from the current sources, with the contract
  // composition's preview files prepared (the Python app serves them).
  await run(process.execPath, [path.join(APP_DIR, 'scripts/build.mjs'), '--composition', contractCompositionDir()]);
}, 120_000);

describe('src/app.py', () => {
  it('compiles (python3 -m py_compile)', async () => {
    const cache = await mkdtemp(path.join(tmpdir(), 'modal-pycache-'));
    try {
      for (const file of [
        'src/app.py',
        'src/web_routes.py',
        'src/preview_routes.py',
        'src/request_paths.py',
        'src/file_responses.py',
        'src/template_settings.py',
        'src/webhook_addresses.py',
        'src/webhook_delivery.py',
        'src/webhooks.py',
      ]) {
        await run(PYTHON, ['-m', 'py_compile', path.join(APP_DIR, file)], { env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
      }
      await run(PYTHON, ['-m', 'py_compile', path.join(APP_DIR, 'local/modal/__init__.py')], {
        env: { ...process.env, PYTHONPYCACHEPREFIX: cache },
      });
    } finally {
      await rm(cache, { recursive: true, force: true });
    }
  });
});

describe('src/web_routes.py error statuses', () => {
  it('answers every error code with the status of ERROR_HTTP_STATUS, the table of every other face (dist/error-http-status.json)', async () => {
    const probe = 'import json, web_routes\nprint(json.dumps(web_routes.STATUS))';
    const { stdout } = await run(PYTHON, ['-c', probe], {
      cwd: path.join(APP_DIR, 'src'),
      env: { ...process.env, PYTHONPATH: `${path.join(APP_DIR, 'local')}:${path.join(APP_DIR, 'src')}`, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(JSON.parse(stdout)).toEqual(ERROR_HTTP_STATUS);
  });
});

describe('src/app.py on Modal', () => {
  it('declares what the template promises: a 900 s, 4 CPU render function and a 150 s web function, both on the seekframe-renders volume', async () => {
    const probe = [
      'import json, app',
      'opts = lambda f: {k: v for k, v in f.options.items() if k in ("cpu", "memory", "timeout")}',
      'print(json.dumps({"render": opts(app.render), "web": opts(app.web), "volume": app.volume.name,',
      '  "mounts": sorted(set(list(app.render.options["volumes"]) + list(app.web.options["volumes"]))), "image": [s[0] for s in app.image.steps]}))',
    ].join('\n');
    const { stdout } = await run(PYTHON, ['-c', probe], {
      cwd: path.join(APP_DIR, 'src'),
      env: { ...process.env, PYTHONPATH: `${path.join(APP_DIR, 'local')}:${path.join(APP_DIR, 'src')}`, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(JSON.parse(stdout)).toEqual({
      render: { cpu: 4, memory: 8192, timeout: 900 },
      web: { timeout: 150 },
      volume: 'seekframe-renders',
      mounts: ['/renders'],
      image: ['from_registry', 'apt_install', 'pip_install', 'add_local_dir', 'run_commands', 'env', 'add_local_python_source'],
    });
  });
});

describe('src/web_routes.py: request paths', () => {
  const pythonEnv = {
    ...process.env,
    PYTHONPATH: `${path.join(APP_DIR, 'local')}:${path.join(APP_DIR, 'src')}`,
    PYTHONDONTWRITEBYTECODE: '1',
  };

  it('relative_path_problem refuses exactly what relativePathProblem (@seekframe/composition) refuses', async () => {
    const cases = [
      'index.html',
      'a/b.png',
      '..a',
      'a..',
      '.env',
      '%2e%2e',
      '',
      '.',
      '..',
      '../x',
      'a/../b',
      'a/./b',
      'a//b',
      'a/',
      '/etc/passwd',
      'a\\b',
      '..\\x',
      'a\u0000b',
      'a\nb',
      'a\u007fb',
      'A/B',
    ];
    const probe =
      'import json, sys, web_routes; print(json.dumps([web_routes.relative_path_problem(p) is None for p in json.load(sys.stdin)]))';
    const child = spawn(PYTHON, ['-c', probe], { cwd: path.join(APP_DIR, 'src'), env: pythonEnv });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdin.end(JSON.stringify(cases));
    await new Promise((resolve) => child.once('close', resolve));
    expect(JSON.parse(out)).toEqual(cases.map((c) => relativePathProblem(c) === null));
  });

  it('/renders/<name> and /preview/composition/<file> answer no file that a symlink, `..` or an encoded separator leads out to', {
    timeout: 120_000,
  }, async () => {
    const SECRET = 'SEEKFRAME-MODAL-SECRET-2d9c';
    const dir = await mkdtemp(path.join(tmpdir(), 'modal-paths-'));
    const comp = path.join(dir, 'compositions', 'comp');
    const renders = path.join(dir, 'volume', 'renders');
    await mkdir(comp, { recursive: true });
    await mkdir(renders, { recursive: true });
    await writeFile(path.join(dir, 'secret.txt'), SECRET);
    // A remote image with no local copy: the one URL the remote route may redirect to.
    const NAMED = 'https://named.example.test/a.png';
    await writeFile(
      path.join(comp, 'index.html'),
      `<!doctype html><html data-composition-id="c" data-width="8" data-height="8" data-duration="1"><body>ok<img src="${NAMED}"></body></html>`,
    );
    await symlink(path.join(dir, 'secret.txt'), path.join(comp, 'leak.txt'));
    await symlink(dir, path.join(comp, 'up'));
    await writeFile(path.join(renders, 'ok.mp4'), 'not really a video');
    await writeFile(path.join(renders, '.hidden.mp4'), SECRET);
    await symlink(path.join(dir, 'secret.txt'), path.join(renders, 'leak.mp4'));
    await symlink(dir, path.join(renders, 'up'));
    // The preview serves what the build prepared: prepared here, with the links in place (the
    // build follows none of them out).
    const dist = path.join(dir, 'dist');
    await run(process.execPath, [path.join(APP_DIR, 'scripts/build.mjs'), '--composition', comp], {
      env: { ...process.env, SEEKFRAME_TEMPLATE_DIST: dist },
    });
    const app = await startPythonApp({ compositionDir: comp, dist, env: { SEEKFRAME_VOLUME_PATH: path.join(dir, 'volume') } });
    try {
      const get = (route: string) => rawGet(app.url, route);
      expect((await get('/renders/ok.mp4')).status).toBe(200);
      expect((await get('/preview/composition/index.html')).status).toBe(200);
      const refused = [
        '/renders/leak.mp4',
        '/renders/up%2Fsecret.txt',
        '/renders/..%2Fsecret.txt',
        '/renders/%2e%2e',
        '/renders/%2E%2E%2F..%2Fsecret.txt',
        '/renders/.hidden.mp4',
        '/renders/..%5Csecret.txt',
        '/preview/composition/leak.txt',
        '/preview/composition/up/secret.txt',
        '/preview/composition/up/missing.txt',
        '/preview/composition/..%2F..%2Fsecret.txt',
        '/preview/composition/%2E%2E/%2e%2e/secret.txt',
        '/preview/composition/../../secret.txt',
        '/preview/composition/..%5C..%5Csecret.txt',
        '/preview/composition/%2Fetc%2Fpasswd',
      ];
      for (const route of refused) {
        const answer = await get(route);
        expect({ route, status: answer.status, leaked: answer.body.includes(SECRET) }).toEqual({ route, status: 404, leaked: false });
        expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'not-found' } });
      }
      // The remote route redirects a subresource to a URL the composition names, never to one a request made up.
      const remote = (url: string) => get(`/preview/composition/__seekframe/remote?url=${encodeURIComponent(url)}`);
      const named = await rawGet(app.url, `/preview/composition/__seekframe/remote?url=${encodeURIComponent(NAMED)}`, {
        'sec-fetch-dest': 'image',
      });
      expect([named.status, named.headers.location]).toEqual([307, NAMED]);
      const madeUp = await rawGet(
        app.url,
        `/preview/composition/__seekframe/remote?url=${encodeURIComponent('https://evil.example.test/x.js')}`,
        { 'sec-fetch-dest': 'script' },
      );
      expect([madeUp.status, madeUp.headers.location]).toEqual([404, undefined]);
      expect((await remote(NAMED)).status).toBe(404); // a navigation (no Sec-Fetch-Dest) is not sent on
    } finally {
      await app.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('src/app.py settings', () => {
  it('RENDER_API_TOKEN only in the process environment (nothing in code): 401 without it, served with it', {
    timeout: 120_000,
  }, async () => {
    const app = await startPythonApp({ env: { RENDER_API_TOKEN: 'modal-env-token-c3' } });
    try {
      const without = await fetch(`${app.url}/api/composition`);
      expect(without.status).toBe(401);
      expect(((await without.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
      const post = await fetch(`${app.url}/api/render`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(post.status).toBe(401);
      await post.arrayBuffer();
      const served = await fetch(`${app.url}/api/composition`, { headers: { authorization: 'Bearer modal-env-token-c3' } });
      expect(served.status).toBe(200);
      await served.arrayBuffer();
    } finally {
      await app.stop();
    }
  });

  it('settings(overrides): a setting given in code wins over its variable field by field; a blank secret given is refused', async () => {
    const probe = [
      'import json, template_settings as t',
      'print(json.dumps([t.settings({"token": "code", "max_frames": 50}), t.settings()]))',
      'try:',
      '    t.settings({"token": "  "})',
      'except RuntimeError as e:',
      '    print(json.dumps(str(e)))',
    ].join('\n');
    const { stdout } = await run(PYTHON, ['-c', probe], {
      cwd: path.join(APP_DIR, 'src'),
      env: {
        ...process.env,
        PYTHONPATH: `${path.join(APP_DIR, 'local')}:${path.join(APP_DIR, 'src')}`,
        PYTHONDONTWRITEBYTECODE: '1',
        RENDER_API_TOKEN: 'env',
        RENDER_MAX_SECONDS: '60',
      },
    });
    const [lines, refusal] = stdout.trim().split('\n');
    const [given, fromEnv] = JSON.parse(lines!) as Record<string, unknown>[];
    expect(given).toMatchObject({ token: 'code', max_frames: 50, max_render_seconds: 60 });
    expect(fromEnv).toMatchObject({ token: 'env', max_frames: 18000, max_render_seconds: 60 });
    expect(JSON.parse(refusal!)).toMatch(/token was given but blank/);
  });

  it.each([
    ['RENDER_API_TOKEN', '   '],
    ['RENDER_API_TOKEN', ''],
    ['RENDER_WEBHOOK_SECRET', ' '],
    ['RENDER_WEBHOOK_SECRET', ''],
    ['RENDER_MAX_FRAMES', ''],
    ['RENDER_MAX_FRAMES', 'lots'],
    ['RENDER_WEBHOOK_ALLOW_LOOPBACK', 'yes'],
    ['ALLOW_CUSTOM_HTML', '1'],
  ])('%s=%j: the web app refuses to start, naming the setting', { timeout: 60_000 }, async (name, value) => {
    const port = await freePort();
    const child = spawn(
      PYTHON,
      ['-m', 'uvicorn', 'app:create_web_app', '--factory', '--app-dir', 'src', '--host', '127.0.0.1', '--port', String(port)],
      {
        cwd: APP_DIR,
        env: {
          ...process.env,
          PYTHONPATH: path.join(APP_DIR, 'local'),
          PYTHONDONTWRITEBYTECODE: '1',
          [name]: value,
          MODAL_LOCAL_STATE_DIR: path.join(tmpdir(), 'modal-blank-token-state'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(output).toMatch(new RegExp(`${name} (is set but blank|must be)`));
  });
});

describe('src/web_routes.py: oversized requests', () => {
  it('uvicorn passes a 70 KB URL and 64 KiB of headers through; the app answers 414 / 431 as JSON', { timeout: 120_000 }, async () => {
    const app = await startPythonApp();
    try {
      const long = await rawGet(app.url, `/api/render/${'a'.repeat(70_000)}`);
      expect({ status: long.status, code: JSON.parse(long.body).error.code }).toEqual({ status: 414, code: 'url-too-long' });
      expect(long.headers['x-request-id']).toBeTruthy();
      const heavy = await rawGet(app.url, '/api/composition', { 'x-big': 'b'.repeat(64 * 1024) });
      expect({ status: heavy.status, code: JSON.parse(heavy.body).error.code }).toEqual({ status: 431, code: 'headers-too-large' });
      expect((await rawGet(app.url, '/api/composition')).status).toBe(200);
    } finally {
      await app.stop();
    }
  });
});

describe('src/web_routes.py: GET /api/openapi.json', () => {
  it('serves the document the build made from the render API schemas (call-id mode), without the token the other /api routes need', {
    timeout: 120_000,
  }, async () => {
    const app = await startPythonApp({ env: { RENDER_API_TOKEN: 'modal-openapi-token' } });
    try {
      const answer = await fetch(`${app.url}/api/openapi.json`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/application\/json/);
      // The same document every TypeScript template answers for this mode: the built file is current.
      expect(await answer.json()).toEqual(JSON.parse(JSON.stringify(renderApiDocument({ answerMode: 'call-id' }))));
      expect((await fetch(`${app.url}/api/composition`)).status).toBe(401);
    } finally {
      await app.stop();
    }
  });
});

describe('src/web_routes.py: RENDER_RETENTION_SECONDS', () => {
  it('past retention a stored render leaves the volume: on its next status request, and on the next new render for any other', {
    timeout: 180_000,
  }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'modal-retention-'));
    const volume = path.join(dir, 'volume');
    await mkdir(path.join(volume, 'jobs'), { recursive: true });
    await mkdir(path.join(volume, 'renders'), { recursive: true });
    const past = new Date(Date.now() - 3600_000).toISOString();
    for (const id of ['fc-asked', 'fc-forgotten']) {
      await writeFile(
        path.join(volume, 'jobs', `${id}.json`),
        JSON.stringify({ id, status: 'finished', request: { variables: {}, format: 'mp4' }, createdAt: past, expiresAt: past }),
      );
      await writeFile(path.join(volume, 'renders', `${id}.mp4`), 'an old render');
    }
    const app = await startPythonApp({ env: { SEEKFRAME_VOLUME_PATH: volume } });
    try {
      const asked = await rawGet(app.url, '/api/render/fc-asked');
      expect({ status: asked.status, code: JSON.parse(asked.body).error.code }).toEqual({ status: 410, code: 'render-expired' });
      expect(await app.storedKeys()).toEqual(['renders/fc-forgotten.mp4']);
      // Nobody asks for the other one: a new render sweeps it.
      const started = await fetch(`${app.url}/api/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'respond-async' },
        body: '{}',
      });
      expect(started.status).toBe(202);
      expect(await app.storedKeys()).toEqual([]);
      const { statusUrl } = (await started.json()) as { statusUrl: string };
      expect((await fetch(`${app.url}${statusUrl}`, { method: 'DELETE' })).status).toBe(202);
    } finally {
      await app.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

runRenderApiContract({
  name: 'modal-function TypeScript twin (call-id)',
  answerMode: 'call-id',
  async start(settings) {
    const api = await startTwin({
      compositionDir: contractCompositionDir(),
      env: contractSettingsEnv(settings),
      runner: { cli: CLI, workers: 1 },
      previewAssets: nodePreviewAssets({ fromSource: true }),
    });
    return { baseUrl: api.url, stop: () => api.close() };
  },
});

// The contract's webhook checks on the real src/app.py (signed deliveries from the render function
// to a receiver on 127.0.0.1 under RENDER_WEBHOOK_ALLOW_LOOPBACK=true, refusals, attempts in the
// status): here, because they are what this app implements itself, in Python.
describe('render API contract: modal-function src/app.py (webhooks)', () => {
  defineWebhookContract({
    name: 'modal-function src/app.py',
    answerMode: 'call-id',
    webhooks: true,
    async start(settings) {
      const app = await startPythonApp({ env: contractSettingsEnv(settings) });
      return { baseUrl: app.url, stop: () => app.stop() };
    },
  });
});

describe("src/app.py: a cancelled render's webhook", () => {
  it('DELETE sends render.failed (render-cancelled, with its documented fix) as the one final event, signed with the secret', {
    timeout: 240_000,
  }, async () => {
    const SECRET = 'modal-cancel-secret-7a01';
    const receiver = await startWebhookReceiver();
    const app = await startPythonApp({ env: { RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' } });
    try {
      const started = await fetch(`${app.url}/api/render`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', prefer: 'respond-async' },
        body: JSON.stringify({ variables: { title: 'Stop me' }, webhook: { url: receiver.url, customData: 7 } }),
      });
      expect(started.status).toBe(202);
      const { id, statusUrl } = (await started.json()) as { id: string; statusUrl: string };
      expect((await fetch(`${app.url}${statusUrl}`, { method: 'DELETE' })).status).toBe(202);
      await receiver.waitFor((deliveries) => deliveries.some((d) => d.headers['seekframe-event'] === 'render.failed'));
      const events = [];
      for (const delivery of receiver.deliveries)
        events.push(await verifyWebhook({ body: delivery.body, headers: delivery.headers, secret: SECRET }));
      const failed = events.at(-1)!;
      expect(failed).toMatchObject({
        type: 'render.failed',
        renderId: id,
        customData: 7,
        data: { error: { code: 'render-cancelled', stage: 'capture', retryable: false, fix: ERROR_DOCS['render-cancelled'].fix } },
      });
      expect(events.filter((e) => e.type === 'render.failed' || e.type === 'render.completed')).toHaveLength(1);
    } finally {
      await app.stop();
      await receiver.close();
    }
  });
});

describe('src/app.py: frames and still reach the CLI', () => {
  /** POST, then poll the call until it answers the file (call-id mode). */
  async function rendered(base: string, body: unknown): Promise<Response> {
    const started = await fetch(`${base}/api/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect({ status: started.status, body: started.status === 200 ? null : await started.text() }).toEqual({ status: 200, body: null });
    const { call_id: id } = (await started.json()) as { call_id: string };
    for (;;) {
      const answer = await fetch(`${base}/api/render/${encodeURIComponent(id)}`);
      if (answer.status !== 202) return answer;
      await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get('retry-after') ?? '1') * 250));
    }
  }

  it('"frames": "2-5" is an MP4 of 4 frames; "still": {"frame": 3} is a PNG', { timeout: 240_000 }, async () => {
    const app = await startPythonApp();
    try {
      const span = await rendered(app.url, { frames: '2-5' });
      expect(span.status).toBe(200);
      expect((await probeVideo(new Uint8Array(await span.arrayBuffer()))).frames).toBe(4);
      const still = await rendered(app.url, { still: { frame: 3 } });
      expect(still.status).toBe(200);
      expect(still.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await still.arrayBuffer())
          .subarray(1, 4)
          .toString('latin1'),
      ).toBe('PNG');
    } finally {
      await app.stop();
    }
  });
});

// The real src/app.py under uvicorn gets the whole contract suite in the project `seekframe init
// --template modal-function` makes, installed from a local registry and started with `npm run dev`:
// tools/registry/test/template-modal-function.test.ts. The tests above keep what only the monorepo
// can check quickly: the Python path rule against the TypeScript one, oversized requests, retention.
