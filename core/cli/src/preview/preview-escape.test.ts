import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadRuntimeSource } from '@seekframe/producer';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startPreview, type PreviewServer } from './start-preview.js';

/**
 * `seekframe preview` answers every path that is not its own through the project server, the
 * remote route and the font route included: the ways out of the project (issue 23) are tried
 * through the preview port. The folder above the project has a package.json and a secret.
 * Node's fetch is stubbed to refuse anything but loopback: a refusal must not become a download.
 */
const SECRET = 'SEEKFRAME-PREVIEW-SECRET-0b7e';
let dir: string;
let preview: PreviewServer;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return /^http:\/\/127\.0\.0\.1[:/]/.test(url) ? realFetch(input, init) : Promise.reject(new Error(`network used: ${url}`));
  });
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-preview-escape-'));
  await writeFile(path.join(dir, 'package.json'), '{"name":"ancestor","version":"1.0.0"}');
  await writeFile(path.join(dir, '.env'), `TOKEN=${SECRET}`);
  const project = path.join(dir, 'project');
  const font = path.join(project, 'node_modules', '@fontsource', 'leaky');
  await mkdir(path.join(font, 'files'), { recursive: true });
  await writeFile(path.join(font, 'package.json'), '{"name":"@fontsource/leaky","version":"5.0.0"}');
  await writeFile(path.join(font, 'metadata.json'), '{"family":"Leaky","subsets":["latin"],"weights":[400],"styles":["normal"]}');
  await symlink(path.join(dir, '.env'), path.join(font, 'files', 'leaky-latin-400-normal.woff2'));
  await writeFile(
    path.join(project, 'index.html'),
    '<!doctype html><html data-composition-id="p" data-width="32" data-height="32" data-duration="1"><head></head><body></body></html>',
  );
  preview = await startPreview({
    entryFile: path.join(project, 'index.html'),
    port: 0,
    playerSource: '',
    appSource: '',
    runtimeSource: await loadRuntimeSource(),
  });
});
afterAll(async () => {
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
  vi.unstubAllGlobals();
});

function rawGet(pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(preview.url);
    http
      .get({ host: '127.0.0.1', port: Number(port), path: pathname }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

const remote = (url: string): string => `/__seekframe/remote?url=${encodeURIComponent(url)}`;

it.each([
  remote('https://unpkg.com/..@1/.env'),
  remote('https://cdn.jsdelivr.net/npm/..@latest/.env'),
  remote('https://unpkg.com/.@1/../.env'),
  remote('https://unpkg.com/%2e%2E@1/.env'),
  remote('https://unpkg.com/..%2F..@1/.env'),
  remote('https://unpkg.com/@scope/..@1/.env'),
  '/../.env',
  '/%2e%2e/.env',
  '/%2E%2E/.env',
  '/..%2f.env',
  '/__seekframe/fonts/leaky/leaky-latin-400-normal.woff2',
  '/__seekframe/fonts/%2e%2e/.env',
  '/__seekframe/preview/..%2f..%2f.env',
])('seekframe preview %s: refused, no byte of the secret', async (route) => {
  const answer = await rawGet(route);
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.body).not.toContain(SECRET);
  expect(answer.body).not.toContain(dir);
});
