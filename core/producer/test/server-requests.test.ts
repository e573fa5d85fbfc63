import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerServer, resolveServerConfig, type ProducerServer } from '../src/index.js';
import { probe } from './helpers/media-tools.js';
import { getJson, postJson, streamRender, tinyComposition } from './helpers/server-client.js';
import { tempProject } from './helpers/temp-project.js';

let outside: Awaited<ReturnType<typeof tempProject>>;
let project: Awaited<ReturnType<typeof tempProject>>;
let server: ProducerServer;
let secured: ProducerServer;
const TOKEN = 'test-token-5f2c';

beforeAll(async () => {
  outside = await tempProject({ 'secret/index.html': tinyComposition('#0f0') });
  project = await tempProject({ 'tiny/index.html': tinyComposition(), 'site/page.html': tinyComposition('#00f') });
  await symlink(path.join(outside.dir, 'secret'), path.join(project.dir, 'linked'));
  server = await createProducerServer({
    port: 0,
    root: project.dir,
    maxConcurrentRenders: 2,
    maxBodyBytes: 64 * 1024,
    maxHtmlBytes: 16 * 1024,
    env: {},
  });
  secured = await createProducerServer({ port: 0, root: project.dir, env: { PRODUCER_AUTH_TOKEN: TOKEN } });
});

afterAll(async () => {
  await Promise.all([server?.close(), secured?.close()]);
  await Promise.all([project?.cleanup(), outside?.cleanup()]);
});

type ErrorBody = { error: { code: string; message: string } };

describe('producer server requests', () => {
  it('GET /health and GET /render/queue answer JSON', async () => {
    expect(await getJson(`${server.url}/health`)).toEqual({
      status: 200,
      body: {
        status: 'ok',
        maxConcurrentRenders: 2,
        activeRenders: 0,
        queuedRenders: 0,
        browserPool: expect.objectContaining({ browsers: 0, maxBrowsers: 4, launched: 0 }),
      },
    });
    expect(await getJson(`${server.url}/render/queue`)).toEqual({
      status: 200,
      body: { maxConcurrentRenders: 2, activeRenders: 0, queuedRenders: 0 },
    });
    const missing = await getJson<ErrorBody>(`${server.url}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not-found');
  });

  it.each([
    ['not JSON', '{"projectDir":', 'invalid-json', /not valid JSON/],
    ['neither projectDir nor html', {}, 'invalid-body', /exactly one of projectDir or html/],
    ['both projectDir and html', { projectDir: 'tiny', html: '<html></html>' }, 'invalid-body', /exactly one of projectDir or html/],
    ['an unknown field', { projectDir: 'tiny', output: '/etc/passwd' }, 'invalid-body', /unknown field\(s\) output/],
    ['a number for projectDir', { projectDir: 42 }, 'invalid-body', /projectDir/],
    ['fps out of range', { projectDir: 'tiny', fps: 500 }, 'invalid-options', /fps .*outside 1-240/],
    ['crf and videoBitrate together', { projectDir: 'tiny', crf: 20, videoBitrate: '2M' }, 'invalid-options', /exclude each other/],
    [
      'a bit rate past what an encoder takes',
      { projectDir: 'tiny', videoBitrate: '99999999999G' },
      'invalid-options',
      /videoBitrate must be 1k-2G bits per second/,
    ],
    ['an unknown format', { projectDir: 'tiny', format: 'avi' }, 'invalid-options', /format must be one of/],
    ['png-sequence', { projectDir: 'tiny', format: 'png-sequence' }, 'invalid-options', /png-sequence/],
    [
      'hls (a folder, not one file)',
      { projectDir: 'tiny', format: 'hls' },
      'invalid-options',
      /format hls writes a folder \(a playlist and its segments\), which the server cannot hand out as one file.*seekframe render --format hls/,
    ],
    ['too many workers', { projectDir: 'tiny', workers: 99 }, 'invalid-options', /workers must be 1-24/],
    ['variables that are not an object', { projectDir: 'tiny', variables: [1, 2] }, 'invalid-options', /variables/],
    ['a missing project', { projectDir: 'missing' }, 'entry-not-found', /missing does not exist/],
    // 413 like every face answers an oversized part of a body (ERROR_HTTP_STATUS).
    ['html over the size cap', { html: 'x'.repeat(20 * 1024) }, 'html-too-large', /limit of 16384/, 413],
  ])('4xx for %s, on both render routes', async (_name, body, code, message, status = 400) => {
    for (const route of ['/render', '/render/stream']) {
      const response = await postJson<ErrorBody>(`${server.url}${route}`, body);
      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
      expect(response.body.error.message).toMatch(message);
    }
    expect((await getJson(`${server.url}/render/queue`)).body).toMatchObject({ activeRenders: 0, queuedRenders: 0 });
  });

  it('413 for a body over the size limit', async () => {
    const response = await postJson<ErrorBody>(`${server.url}/render`, { html: 'x'.repeat(70 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('body-too-large');
  });

  it.each([['../' + 'x'], ['tiny/../../etc'], ['/etc'], ['linked']])(
    '400 path-outside-root for projectDir %s, and no server path in the message',
    async (projectDir) => {
      const response = await postJson<ErrorBody>(`${server.url}/render`, { projectDir });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('path-outside-root');
      expect(response.body.error.message).not.toContain(project.dir);
    },
  );

  it('POST /render blocks until done and answers the output URL; the file is served by token, ranges too', async () => {
    const response = await postJson<{ requestId: string; outputUrl: string; size: number; videoDuration: number }>(`${server.url}/render`, {
      projectDir: 'site/page.html',
      workers: 1,
      format: 'webm',
    });
    expect(response.status).toBe(200);
    expect(response.body.videoDuration).toBeCloseTo(0.2, 5);
    const file = await fetch(`${server.url}${response.body.outputUrl}`);
    expect(file.headers.get('content-type')).toBe('video/webm');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(response.body.size);
    const probed = await probe(path.join(server.config.outputsDir, `${path.basename(response.body.outputUrl)}.webm`));
    expect(probed.formatName).toContain('webm');
    expect(probed.streams[0]).toMatchObject({ codec_name: 'vp9', width: 32, height: 32 });
    const ranged = await fetch(`${server.url}${response.body.outputUrl}`, { headers: { range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(10);
    for (const token of ['A'.repeat(32), '..%2F..%2Fetc%2Fpasswd', 'short']) {
      expect((await getJson<ErrorBody>(`${server.url}/outputs/${token}`)).body.error.code).toBe('output-not-found');
    }
  });

  it('an inline html body renders from a temp project', async () => {
    const client = streamRender(server.url, { html: tinyComposition('#fa0'), workers: 1, fps: 5 });
    const events = await client.done;
    const complete = events.at(-1);
    expect(complete).toMatchObject({ type: 'complete', videoDuration: 0.2 });
    const token = path.basename((complete as { outputUrl: string }).outputUrl);
    const probed = await probe(path.join(server.config.outputsDir, `${token}.mp4`));
    expect(probed.streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '1' });
  });

  it('with PRODUCER_AUTH_TOKEN every route needs the bearer token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: TOKEN }] as Array<Record<string, string>>) {
      for (const route of ['/health', '/render/queue', '/outputs/' + 'A'.repeat(32)]) {
        const response = await getJson<ErrorBody>(`${secured.url}${route}`, headers);
        expect(response.status).toBe(401);
        expect(response.body.error.code).toBe('unauthorized');
      }
      expect((await postJson<ErrorBody>(`${secured.url}/render`, { projectDir: 'tiny' }, headers)).status).toBe(401);
      expect(await streamRender(secured.url, { projectDir: 'tiny' }, headers).status).toBe(401);
    }
    const ok = await getJson(`${secured.url}/render/queue`, { authorization: `Bearer ${TOKEN}` });
    expect(ok).toEqual({ status: 200, body: { maxConcurrentRenders: 2, activeRenders: 0, queuedRenders: 0 } });
  });
});

describe('producer server configuration', () => {
  it('concurrency from the option or PRODUCER_MAX_CONCURRENT_RENDERS, 1-10, default 2', () => {
    expect(resolveServerConfig({ env: {} }).maxConcurrentRenders).toBe(2);
    expect(resolveServerConfig({ env: { PRODUCER_MAX_CONCURRENT_RENDERS: '7' } }).maxConcurrentRenders).toBe(7);
    expect(resolveServerConfig({ maxConcurrentRenders: '3', env: { PRODUCER_MAX_CONCURRENT_RENDERS: '7' } }).maxConcurrentRenders).toBe(3);
    expect(() => resolveServerConfig({ env: { PRODUCER_MAX_CONCURRENT_RENDERS: '11' } })).toThrow(
      /PRODUCER_MAX_CONCURRENT_RENDERS must be 1-10/,
    );
    expect(() => resolveServerConfig({ env: { PRODUCER_MAX_CONCURRENT_RENDERS: 'two' } })).toThrow(
      /PRODUCER_MAX_CONCURRENT_RENDERS must be a whole number/,
    );
    expect(() => resolveServerConfig({ maxConcurrentRenders: 0, env: {} })).toThrow(/maxConcurrentRenders must be 1-10/);
  });

  it('a non-loopback host needs PRODUCER_AUTH_TOKEN; outputs default to <root>/.seekframe/outputs', async () => {
    expect(() => resolveServerConfig({ host: '0.0.0.0', env: {} })).toThrow(/will not listen on 0.0.0.0 without authentication/);
    expect(resolveServerConfig({ host: '0.0.0.0', env: { PRODUCER_AUTH_TOKEN: 'x' } }).authToken).toBe('x');
    expect(resolveServerConfig({ host: '::1', env: {} }).host).toBe('::1');
    expect(resolveServerConfig({ root: '/srv/videos', env: {} }).outputsDir).toBe(path.join('/srv/videos', '.seekframe', 'outputs'));
    await expect(createProducerServer({ port: 0, host: '0.0.0.0', env: {} })).rejects.toMatchObject({ code: 'insecure-host' });
  });
});
