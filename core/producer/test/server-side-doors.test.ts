import { mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProducerServer, renderComposition, type ProducerServer } from '../src/index.js';
import { decodeFrames, ffmpeg, pixel } from './helpers/media-tools.js';
import { streamRender } from './helpers/server-client.js';
import { composition, tempProject } from './helpers/temp-project.js';

/**
 * Side doors from a rendered page to the server's network and files: media sources handed to
 * ffmpeg, symlinks out of the project, sub-compositions outside an inline project. A "secret"
 * server on a loopback port and files in a folder beside the project stand in for what a page
 * from a request must never reach.
 */
const MARKER = 'SEEKFRAME-SIDE-DOOR-MARKER-2b7e';
let secret: Server;
let secretOrigin: string;
let hits: string[] = [];
let outside: string;
let project: Awaited<ReturnType<typeof tempProject>>;
let server: ProducerServer;

const clipStyle = 'position:absolute;left:0;top:0;width:32px;height:32px';
const page = (body: string): string => composition({ width: 32, height: 32, duration: 0.2, fps: 10, body });
/** A page script sets the src, so neither the served-HTML rewrite nor the browser's proxy sees it as a static reference. */
const scriptSetMedia = (tag: 'video' | 'audio', src: string): string =>
  page(
    `<${tag} ${tag === 'video' ? 'muted ' : ''}data-start="0" data-duration="0.2" style="${clipStyle}"></${tag}><script>document.querySelector('${tag}').src = ${JSON.stringify(src)};</script>`,
  );

async function lastEvent(
  body: unknown,
): Promise<{ type: string; error?: { code: string; message: string; details?: Record<string, unknown> } }> {
  const events = await streamRender(server.url, body).done;
  return events.at(-1) as { type: string; error?: { code: string; message: string } };
}

beforeAll(async () => {
  outside = await mkdtemp(path.join(os.tmpdir(), 'sf-outside-'));
  // A red clip and a tone outside the project: what a page must not get into its output.
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=32x32:r=10:d=0.5',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    path.join(outside, 'secret.mp4'),
  ]);
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=0.5',
    '-c:a',
    'pcm_s16le',
    path.join(outside, 'secret.wav'),
  ]);
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=32x32', '-frames:v', '1', path.join(outside, 'secret.png')]);
  await writeFile(
    path.join(outside, 'child.html'),
    `<div data-composition-id="${MARKER}" data-width="32" data-height="32" data-duration="0.2">${MARKER}</div>`,
  );
  const files: Record<string, Buffer> = {
    '/secret.mp4': await readFile(path.join(outside, 'secret.mp4')),
    '/secret.wav': await readFile(path.join(outside, 'secret.wav')),
  };
  secret = createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = files[req.url ?? ''];
    if (!body) return void res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': req.url?.endsWith('.wav') ? 'audio/wav' : 'video/mp4', 'access-control-allow-origin': '*' })
      .end(body);
  });
  await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
  secretOrigin = `http://127.0.0.1:${(secret.address() as AddressInfo).port}`;

  project = await tempProject({
    'loopback-video/index.html': scriptSetMedia('video', `${secretOrigin}/secret.mp4`),
    'loopback-audio/index.html': scriptSetMedia('audio', `${secretOrigin}/secret.wav`),
    'file-url/index.html': page(
      `<video src="file://${path.join(outside, 'secret.mp4')}" muted data-start="0" data-duration="0.2" style="${clipStyle}"></video>`,
    ),
    'concat/index.html': scriptSetMedia('video', `concat:${path.join(outside, 'secret.mp4')}|${path.join(outside, 'secret.mp4')}`),
    'subfile/index.html': scriptSetMedia('audio', `subfile:,,start,0,end,0,,:${path.join(outside, 'secret.wav')}`),
    'symlink-video/index.html': page(`<video src="linked.mp4" muted data-start="0" data-duration="0.2" style="${clipStyle}"></video>`),
    // Named by a script: the preflight cannot see it, the project server refuses it.
    'symlink-img/index.html': page(
      '<img id="linked" width="32" height="32"><script>document.getElementById("linked").src = "linked.png";</script>',
    ),
  });
  await symlink(path.join(outside, 'secret.mp4'), path.join(project.dir, 'symlink-video', 'linked.mp4'));
  await symlink(path.join(outside, 'secret.png'), path.join(project.dir, 'symlink-img', 'linked.png'));
  server = await createProducerServer({ port: 0, root: project.dir, maxConcurrentRenders: 2, env: {} });
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => secret?.close(resolve));
  await project?.cleanup();
  await rm(outside, { recursive: true, force: true });
});

describe('media sources in server renders', () => {
  it.each([
    ['loopback-video', 'video', 'secret.mp4'],
    ['loopback-audio', 'audio', 'secret.wav'],
  ])('%s: a script-set loopback src fails the render naming it, and the secret server sees no request', async (projectDir, kind, name) => {
    hits = [];
    const last = await lastEvent({ projectDir, workers: 1 });
    expect(last).toMatchObject({ type: 'error', error: { code: 'media-source-refused' } });
    expect(last.error?.message).toContain(`The <${kind}> source ${secretOrigin}/${name} was refused: 127.0.0.1 resolves to 127.0.0.1`);
    expect(last.error?.message).toContain(
      'In server renders a media source must be a file inside the project folder or a public http(s) URL',
    );
    expect(hits).toEqual([]);
  });

  it('a file:// src outside the project fails the render and is never given to ffmpeg', async () => {
    const last = await lastEvent({ projectDir: 'file-url', workers: 1 });
    expect(last).toMatchObject({ type: 'error', error: { code: 'media-source-refused' } });
    expect(last.error?.message).toMatch(/file:\/\/.*secret\.mp4 was refused: file: URLs would read the server's own files/);
  });

  it.each([
    ['concat', /concat: sources are not media files ffmpeg may open/],
    ['subfile', /subfile: sources are not media files ffmpeg may open/],
  ])('%s: an ffmpeg protocol as src is refused', async (projectDir, why) => {
    const last = await lastEvent({ projectDir, workers: 1 });
    expect(last).toMatchObject({ type: 'error', error: { code: 'media-source-refused' } });
    expect(last.error?.message).toMatch(why);
  });

  it('a project symlink to a video outside the project is refused before the stream opens, naming it (the preflight)', async () => {
    const response = await fetch(`${server.url}/render/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ projectDir: 'symlink-video', workers: 1 }),
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as {
      error: { code: string; message: string; details: { findings: { rule: string; message: string }[] } };
    };
    expect(answer.error.code).toBe('lint-failed');
    expect(answer.error.details.findings).toEqual([
      expect.objectContaining({ rule: 'project/unreadable-file', message: expect.stringContaining('<video src> names "linked.mp4"') }),
    ]);
    expect(answer.error.message).toContain('a link out of the project');
    expect(answer.error.message).not.toContain(outside);
  });
});

describe('symlinks out of a served project', () => {
  it('an <img> a script points at a symlink out never gets its bytes: the render fails naming it', async () => {
    const last = await lastEvent({ projectDir: 'symlink-img', workers: 1 });
    expect(last).toMatchObject({
      type: 'error',
      error: { code: 'path-outside-project', details: { file: 'linked.png', referencedBy: 'index.html' } },
    });
  });
});

describe('inline html server renders', () => {
  it('lint never reads a data-composition-src outside the temporary project', async () => {
    // The inline project is a fresh folder in the temp dir, so "../<outside>/child.html" names
    // the marker file beside it; whether it exists must make no difference.
    for (const name of ['child.html', 'missing.html']) {
      const html = composition({
        width: 32,
        height: 32,
        duration: 0.2,
        fps: 10,
        body: `<div data-composition-id="sub" data-composition-src="../${path.basename(outside)}/${name}" data-start="0" data-duration="0.2"></div>`,
      });
      // Refused before the stream opens (the server's preflight lint), as 400 JSON.
      const response = await fetch(`${server.url}/render/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ html, workers: 1 }),
      });
      expect(response.status, name).toBe(400);
      const answer = (await response.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } };
      expect(answer, name).toMatchObject({
        error: { code: 'path-outside-project', details: { file: `../${path.basename(outside)}/${name}` } },
      });
      expect(answer.error.message).toContain(`The sub-composition ../${path.basename(outside)}/${name} is outside the project folder`);
      expect(answer.error.message).not.toContain(MARKER);
      expect(answer.error.message).not.toContain(os.tmpdir());
    }
  });
});

describe('trusted CLI renders keep their media', () => {
  it('the same script-set remote video renders (downloaded first), so the server tests above are not vacuous', async () => {
    hits = [];
    const output = path.join(project.dir, 'cli-remote.mp4');
    await renderComposition({ projectDir: path.join(project.dir, 'loopback-video'), output, workers: 1 });
    expect(hits).toContain('/secret.mp4');
    expect((await stat(output)).size).toBeGreaterThan(0);
    const [r, g, b] = pixel((await decodeFrames(output, 32, 32))[1]!, 32, 16, 16);
    expect(r).toBeGreaterThan(150);
    expect(g).toBeLessThan(80);
    expect(b).toBeLessThan(80);
  });

  it('a file:// video outside the project renders in a trusted render', async () => {
    const output = path.join(project.dir, 'cli-file.mp4');
    await renderComposition({ projectDir: path.join(project.dir, 'file-url'), output, workers: 1 });
    const [r] = pixel((await decodeFrames(output, 32, 32))[1]!, 32, 16, 16);
    expect(r).toBeGreaterThan(150);
  });
});
