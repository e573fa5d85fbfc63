import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectServer, type ProjectServer } from './project-server.js';

/**
 * Every route of the project server that maps a request to a file, tried with the ways out of a
 * folder: `..`, `.`, `%2e%2e` in any case, an encoded `/` or `\`, `@scope/..`, a symlink inside
 * a package. The folder above the project holds a package.json (as a monorepo or a home folder
 * would) and a secret; neither the confined server (server renders) nor the trusted one (local
 * renders, `seekframe preview`) may answer a byte of it.
 */
const SECRET = 'SEEKFRAME-ROUTE-SECRET-c41d';
let dir: string;
let confined: ProjectServer;
let trusted: ProjectServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-route-escape-'));
  const project = path.join(dir, 'project');
  await mkdir(project);
  await writeFile(path.join(dir, 'package.json'), '{"name":"ancestor","version":"1.0.0"}');
  await writeFile(path.join(dir, '.env'), `TOKEN=${SECRET}`);
  await writeFile(path.join(project, 'index.html'), '<html><head></head><body>entry</body></html>');
  await writeFile(path.join(project, 'package.json'), '{"name":"project","version":"1.0.0"}');
  const pkg = path.join(project, 'node_modules', 'good');
  await mkdir(pkg, { recursive: true });
  await writeFile(path.join(pkg, 'package.json'), '{"name":"good","version":"1.0.0","main":"index.js"}');
  await writeFile(path.join(pkg, 'index.js'), 'export const good = 1;');
  await symlink(path.join(dir, '.env'), path.join(pkg, 'linked.js'));
  // A font package (same shape as @fontsource) whose listed font file is a symlink to the secret.
  const font = path.join(project, 'node_modules', '@fontsource', 'leaky');
  await mkdir(path.join(font, 'files'), { recursive: true });
  await writeFile(path.join(font, 'package.json'), '{"name":"@fontsource/leaky","version":"5.0.0"}');
  await writeFile(path.join(font, 'metadata.json'), '{"family":"Leaky","subsets":["latin"],"weights":[400],"styles":["normal"]}');
  await symlink(path.join(dir, '.env'), path.join(font, 'files', 'leaky-latin-400-normal.woff2'));
  const options = { root: project, entry: 'index.html', prepareHtml: (html: string) => html, remoteTimeoutMs: 2000 };
  confined = await createProjectServer({ ...options, confineToRoot: true, publicRemoteOnly: true });
  trusted = await createProjectServer(options);
});

afterAll(async () => {
  await Promise.all([confined?.close(), trusted?.close()]);
  await rm(dir, { recursive: true, force: true });
});

/** A raw GET, so the path is sent exactly as written (fetch would normalise `..` and `%2e`). */
function rawGet(server: ProjectServer, pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(server.origin);
    http
      .get({ host: '127.0.0.1', port: Number(port), path: pathname }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

const REMOTE = [
  'https://cdn.jsdelivr.net/npm/..@latest/.env',
  'https://unpkg.com/..@1/.env',
  'https://unpkg.com/.@1/../.env',
  'https://unpkg.com/%2e%2e@1/.env',
  'https://unpkg.com/%2E%2e@1/.env',
  'https://UNPKG.COM/..@1/.env',
  'https://unpkg.com/..%2f..@1/.env',
  'https://unpkg.com/@scope/..@1/.env',
  'https://unpkg.com/@scope%2F..@1/.env',
  'https://unpkg.com/good@1/..%2f..%2f..%2f.env',
  'https://unpkg.com/good@1/%2e%2e/%2e%2e/%2e%2e/.env',
  'https://unpkg.com/good@1/..%5C..%5C..%5C.env',
  'https://unpkg.com/good@1/linked.js',
];

const STATIC = ['/../.env', '/%2e%2e/.env', '/%2E%2E/.env', '/.%2e/.env', '/..%2f.env', '/..%2F.env', '/./../.env'];

const FONTS = [
  '/__seekframe/fonts/leaky/leaky-latin-400-normal.woff2',
  '/__seekframe/fonts/..%2f..%2f/.env',
  '/__seekframe/fonts/%2e%2e/.env',
  '/__seekframe/fonts/leaky/..%2f..%2f..%2f..%2f.env',
];

describe.each([
  ['confined (server renders)', () => confined],
  ['trusted (local renders, seekframe preview)', () => trusted],
])('%s project server', (_name, server) => {
  it.each(REMOTE)('remote route %s: refused without a byte of the secret, and recorded', async (url) => {
    const answer = await rawGet(server(), `/__seekframe/remote?url=${encodeURIComponent(url)}`);
    expect(answer.status).toBe(502);
    expect(answer.body).not.toContain(SECRET);
    expect(answer.body).not.toContain(dir);
    expect(answer.body).toContain('Refused');
    expect(
      server()
        .problems()
        .some((p) => p.code === 'remote-asset-failed' && p.details?.url === url),
    ).toBe(true);
  });

  it('the remote route still answers a file inside an installed package', async () => {
    const answer = await rawGet(server(), `/__seekframe/remote?url=${encodeURIComponent('https://unpkg.com/good@1/index.js')}`);
    expect(answer).toEqual({ status: 200, body: 'export const good = 1;' });
  });

  it.each(FONTS)('font route %s: no byte of the secret', async (route) => {
    const answer = await rawGet(server(), route);
    expect([403, 404]).toContain(answer.status);
    expect(answer.body).not.toContain(SECRET);
  });

  it.each(STATIC)('project route %s: no byte of the secret', async (route) => {
    const answer = await rawGet(server(), route);
    expect(answer.body).not.toContain(SECRET);
    expect([400, 403, 404]).toContain(answer.status);
  });
});

describe('confined project server', () => {
  it("refuses the project's own link that leads out (403), where a trusted render follows it", async () => {
    expect((await rawGet(confined, '/node_modules/good/linked.js')).status).toBe(403);
    expect((await rawGet(trusted, '/node_modules/good/linked.js')).body).toContain(SECRET);
  });
});
