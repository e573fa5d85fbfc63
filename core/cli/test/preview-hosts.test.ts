import { request } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPreviewHost, previewHosts } from '../src/preview/preview-hosts.js';
import { startPreview, type PreviewServer } from '../src/preview/start-preview.js';

/**
 * DNS rebinding: a site the user has open points its own name at 127.0.0.1, and its page then
 * reads the preview as same-origin. Its requests carry its name in Host, so the preview (every
 * route: the page, the composition's files, the studio) refuses them. No browser needed: the
 * Host header is what the browser would send.
 */
let dir: string;
let preview: PreviewServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-preview-hosts-'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html data-composition-id="h" data-width="16" data-height="16" data-duration="1"><body></body></html>',
  );
  await writeFile(path.join(dir, 'secret.json'), '{"token":"project-secret"}');
  preview = await startPreview({ entryFile: path.join(dir, 'index.html'), port: 0, playerSource: '', appSource: '', runtimeSource: '' });
});

afterAll(async () => {
  await preview?.close();
  await rm(dir, { recursive: true, force: true });
});

function get(pathname: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(preview.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('seekframe preview answers only under its own host names', () => {
  it('refuses every route under a foreign Host (403), and answers the same routes under 127.0.0.1 and localhost', async () => {
    const { port } = new URL(preview.url);
    for (const route of ['/', '/secret.json', '/index.html', '/__seekframe/studio/studio.json']) {
      const foreign = await get(route, `rebind.attacker.test:${port}`);
      expect(foreign.status, route).toBe(403);
      expect(foreign.body, route).not.toContain('project-secret');
      expect(foreign.body, route).not.toContain(dir);
    }
    expect((await get('/secret.json', `127.0.0.1:${port}`)).body).toContain('project-secret');
    expect((await get('/secret.json', `localhost:${port}`)).status).toBe(200);
    expect((await get('/__seekframe/studio/studio.json', `localhost:${port}`)).status).toBe(200);
  });

  it('compares the name without its port, case-insensitively; IPv6 listen addresses in brackets', () => {
    const hosts = previewHosts('127.0.0.1');
    expect(isPreviewHost(hosts, 'LOCALHOST:4400')).toBe(true);
    expect(isPreviewHost(hosts, '[::1]:4400')).toBe(true);
    expect(isPreviewHost(hosts, '127.0.0.1.nip.io:4400')).toBe(false);
    expect(isPreviewHost(hosts, undefined)).toBe(false);
    expect(isPreviewHost(previewHosts('::1'), '[::1]')).toBe(true);
  });
});
