import { mkdtemp, mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectServer, type ProjectServer } from '../serve/project-server.js';
import { createMediaSourceResolver } from './resolve-media-source.js';

const MARKER = 'SEEKFRAME-OUTSIDE-MARKER-7f3a';
let base: string;
let root: string;
let outside: string;
let workDir: string;
let secret: Server;
let secretOrigin: string;
const hits: string[] = [];
const servers: ProjectServer[] = [];

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'sf-media-source-'));
  root = path.join(base, 'project');
  outside = path.join(base, 'outside');
  workDir = path.join(base, 'work');
  await Promise.all([mkdir(path.join(root, 'media'), { recursive: true }), mkdir(outside), mkdir(workDir)]);
  await writeFile(path.join(root, 'index.html'), '<!doctype html><html></html>');
  await writeFile(path.join(root, 'media', 'clip.mp4'), 'inside');
  await writeFile(path.join(outside, 'secret.mp4'), MARKER);
  await symlink(path.join(outside, 'secret.mp4'), path.join(root, 'media', 'linked.mp4'));
  // A folder symlink: every file below it is outside too.
  await symlink(outside, path.join(root, 'shared'));
  secret = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'video/mp4' }).end(MARKER);
  });
  await new Promise<void>((resolve) => secret.listen(0, '127.0.0.1', resolve));
  secretOrigin = `http://127.0.0.1:${(secret.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await new Promise((resolve) => secret?.close(resolve));
  await rm(base, { recursive: true, force: true });
});

async function resolverFor(sandboxed: boolean): Promise<{ server: ProjectServer; resolve: (src: string) => Promise<string> }> {
  const server = await createProjectServer({
    root,
    entry: 'index.html',
    prepareHtml: (html) => html,
    publicRemoteOnly: sandboxed,
    remoteTimeoutMs: 5_000,
  });
  servers.push(server);
  const resolve = createMediaSourceResolver({ server, root, workDir, sandboxed });
  return { server, resolve: (src) => resolve(src, 'video') };
}

describe('media sources in sandboxed (server) renders', () => {
  it('a project file is read by its real path', async () => {
    const { server, resolve } = await resolverFor(true);
    await expect(resolve(`${server.origin}/media/clip.mp4`)).resolves.toBe(path.join(await realpath(root), 'media', 'clip.mp4'));
  });

  it.each([
    ['a file symlink', 'media/linked.mp4'],
    ['a folder symlink', 'shared/secret.mp4'],
    ['a missing file behind a folder symlink', 'shared/missing.mp4'],
  ])('%s leading out of the project is refused, naming the project-relative source', async (_name, relative) => {
    const { server, resolve } = await resolverFor(true);
    const refused = resolve(`${server.origin}/${relative}`);
    await expect(refused).rejects.toMatchObject({ code: 'media-source-refused', stage: 'media', details: { src: relative } });
    await expect(refused).rejects.toThrow(
      `The <video> source ${relative} was refused: it leads outside the project folder through a symlink`,
    );
  });

  it('a loopback URL is refused by the public-address fetch and the server there sees no request', async () => {
    hits.length = 0;
    const { server, resolve } = await resolverFor(true);
    for (const src of [
      `${secretOrigin}/direct.mp4`,
      `${server.origin}/__seekframe/remote?url=${encodeURIComponent(`${secretOrigin}/routed.mp4`)}`,
      `http://localhost:${new URL(secretOrigin).port}/by-name.mp4`,
    ]) {
      await expect(resolve(src), src).rejects.toMatchObject({
        code: 'media-source-refused',
        message: expect.stringMatching(/resolves to .*loopback\/private\/link-local/),
      });
    }
    expect(hits).toEqual([]);
  });

  it('file: URLs, ffmpeg protocols and page-only URLs are refused without touching the file', async () => {
    const { resolve } = await resolverFor(true);
    const file = path.join(outside, 'secret.mp4');
    for (const [src, why] of [
      [pathToFileURL(file).href, /file: URLs would read the server's own files/],
      [`concat:${file}|${file}`, /concat: sources are not media files ffmpeg may open/],
      [`subfile:,,start,0,end,10,,:${file}`, /subfile: sources are not media files/],
      [`tcp://127.0.0.1:9/`, /tcp: sources are not media files/],
      ['blob:http://127.0.0.1/0b3c', /blob: sources are not media files/],
      ['/etc/hostname', /it is not a URL the page could load/],
    ] as const) {
      await expect(resolve(src), src).rejects.toMatchObject({ code: 'media-source-refused', message: expect.stringMatching(why) });
    }
  });

  it('a data: URL is decoded into the work folder', async () => {
    const { resolve } = await resolverFor(true);
    const file = await resolve(`data:video/mp4;base64,${Buffer.from('hello media').toString('base64')}`);
    expect(path.dirname(file)).toBe(workDir);
    expect(await readFile(file, 'utf8')).toBe('hello media');
  });
});

describe('media sources in trusted (CLI) renders', () => {
  it('remote media is downloaded into the work folder (ffmpeg never gets the URL), file: paths and symlinks are allowed', async () => {
    hits.length = 0;
    const { server, resolve } = await resolverFor(false);
    const downloaded = await resolve(`${secretOrigin}/remote.mp4`);
    expect(path.dirname(downloaded)).toBe(workDir);
    expect(path.extname(downloaded)).toBe('.mp4');
    expect(await readFile(downloaded, 'utf8')).toBe(MARKER);
    expect(hits).toEqual(['/remote.mp4']);
    expect(await resolve(pathToFileURL(path.join(outside, 'secret.mp4')).href)).toBe(path.join(outside, 'secret.mp4'));
    expect(await resolve(`${server.origin}/media/linked.mp4`)).toBe(path.join(root, 'media', 'linked.mp4'));
    await expect(resolve(`concat:${downloaded}|${downloaded}`)).rejects.toMatchObject({ code: 'media-source-refused' });
  });
});
