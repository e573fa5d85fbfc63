import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProjectServer, type ProjectServer } from './project-server.js';

const MARKER = 'SEEKFRAME-SYMLINK-MARKER-51c2';
let dir: string;
let confined: ProjectServer;
let trusted: ProjectServer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-symlink-test-'));
  const project = path.join(dir, 'project');
  await mkdir(path.join(project, 'assets'), { recursive: true });
  await mkdir(path.join(dir, 'outside'));
  await writeFile(path.join(dir, 'outside', 'secret.txt'), MARKER);
  await writeFile(path.join(dir, 'outside', 'child.html'), `<html><head></head><body>${MARKER}</body></html>`);
  await writeFile(path.join(project, 'index.html'), '<html><head></head><body>entry</body></html>');
  await writeFile(path.join(project, 'assets', 'real.txt'), 'inside');
  await symlink(path.join(dir, 'outside', 'secret.txt'), path.join(project, 'assets', 'linked.txt'));
  await symlink(path.join(dir, 'outside', 'child.html'), path.join(project, 'child.html'));
  await symlink(path.join(dir, 'outside'), path.join(project, 'shared'));
  // A project's own @fontsource package whose font file is a symlink to the secret.
  const fake = path.join(project, 'node_modules', '@fontsource', 'fakefont');
  await mkdir(path.join(fake, 'files'), { recursive: true });
  await writeFile(path.join(fake, 'package.json'), '{"name":"@fontsource/fakefont","version":"1.0.0"}');
  await writeFile(path.join(fake, 'metadata.json'), '{"family":"Fake Font","subsets":["latin"],"weights":[400],"styles":["normal"]}');
  await symlink(path.join(dir, 'outside', 'secret.txt'), path.join(fake, 'files', 'fakefont-latin-400-normal.woff2'));
  // A symlink that stays inside the project is fine.
  await symlink(path.join(project, 'assets', 'real.txt'), path.join(project, 'alias.txt'));
  const options = { root: project, entry: 'index.html', prepareHtml: (html: string) => html };
  confined = await createProjectServer({ ...options, confineToRoot: true });
  trusted = await createProjectServer(options);
});

afterAll(async () => {
  await Promise.all([confined?.close(), trusted?.close()]);
  await rm(dir, { recursive: true, force: true });
});

describe('a confined project server (server renders) refuses symlinks that lead out of the project', () => {
  // Missing files behind a symlink out answer like existing ones: no way to probe what exists there.
  it.each(['assets/linked.txt', 'shared/secret.txt', 'child.html', 'shared/missing.txt', 'shared/no-dir/missing.txt'])(
    '%s: 403, none of its bytes, and a recorded problem naming it',
    async (relative) => {
      const response = await fetch(`${confined.origin}/${relative}`, { headers: { referer: `${confined.origin}/index.html` } });
      const body = await response.text();
      expect(response.status).toBe(403);
      expect(body).not.toContain(MARKER);
      const problem = confined.problems().find((p) => p.details?.file === relative);
      expect(problem).toMatchObject({
        code: 'path-outside-project',
        stage: 'serve',
        details: { file: relative, referencedBy: 'index.html' },
      });
      expect(problem?.message).toContain(`${relative} leads outside the project folder through a symlink (referenced by index.html)`);
      expect(problem?.message).not.toContain(dir);
    },
  );

  it('files and symlinks inside the project are served', async () => {
    expect(await (await fetch(`${confined.origin}/assets/real.txt`)).text()).toBe('inside');
    expect(await (await fetch(`${confined.origin}/alias.txt`)).text()).toBe('inside');
  });
});

describe('an unconfined project server (trusted CLI renders)', () => {
  it("follows the project author's symlinks as before", async () => {
    expect(await (await fetch(`${trusted.origin}/assets/linked.txt`)).text()).toBe(MARKER);
    expect(trusted.problems()).toEqual([]);
  });
});

describe('the font route', () => {
  it('a project font package whose file is a symlink out gets 403 and none of its bytes, in trusted renders too', async () => {
    for (const server of [confined, trusted]) {
      // 403, not 404: the route found the package and its listed file, then refused the link.
      const refused = await fetch(`${server.origin}/__seekframe/fonts/fakefont/fakefont-latin-400-normal.woff2`);
      expect(refused.status).toBe(403);
      expect(await refused.text()).not.toContain(MARKER);
      const real = await fetch(`${server.origin}/__seekframe/fonts/inter/inter-latin-400-normal.woff2`);
      expect(real.status).toBe(200);
      expect((await real.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    }
  });
});
