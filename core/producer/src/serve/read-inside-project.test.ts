import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintProject } from '@seekframe/composition';
import { readInsideProject } from './read-inside-project.js';

const MARKER = 'SEEKFRAME-LINT-MARKER-9d0e';
let dir: string;
let project: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-inside-test-'));
  project = path.join(dir, 'project');
  await mkdir(path.join(project, 'parts'), { recursive: true });
  await mkdir(path.join(dir, 'outside'));
  await writeFile(path.join(dir, 'outside', 'secret.html'), `<div data-composition-id="${MARKER}" data-width="x"></div>`);
  await writeFile(
    path.join(project, 'parts', 'child.html'),
    '<div data-composition-id="child" data-width="10" data-height="10" data-duration="1"></div>',
  );
  await symlink(path.join(dir, 'outside', 'secret.html'), path.join(project, 'parts', 'linked.html'));
  await symlink(path.join(dir, 'outside'), path.join(project, 'shared'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('readInsideProject', () => {
  it('reads files inside the project and reports a missing one as absent', async () => {
    const read = readInsideProject(project);
    expect(await read(path.join(project, 'parts', 'child.html'))).toContain('data-composition-id="child"');
    expect(await read(path.join(project, 'parts', 'nope.html'))).toBeUndefined();
  });

  it('refuses a path outside the project the same way whether or not it exists, before reading it', async () => {
    const read = readInsideProject(project);
    for (const name of ['secret.html', 'does-not-exist.html']) {
      const file = path.join(project, '..', 'outside', name);
      const refused = read(file);
      await expect(refused).rejects.toMatchObject({ code: 'path-outside-project', details: { file: `../outside/${name}` } });
      await expect(refused).rejects.toThrow(`The sub-composition ../outside/${name} is outside the project folder`);
    }
  });

  it('refuses symlinks (a file, a folder) that lead out', async () => {
    const read = readInsideProject(project);
    await expect(read(path.join(project, 'parts', 'linked.html'))).rejects.toMatchObject({
      code: 'path-outside-project',
      details: { file: 'parts/linked.html' },
    });
    await expect(read(path.join(project, 'shared', 'secret.html'))).rejects.toMatchObject({
      code: 'path-outside-project',
      details: { file: 'shared/secret.html' },
    });
    await expect(read(path.join(project, 'shared', 'missing.html'))).rejects.toMatchObject({ code: 'path-outside-project' });
    await expect(read(path.join(project, 'shared', 'no-dir', 'missing.html'))).rejects.toMatchObject({ code: 'path-outside-project' });
  });

  it('stops lintProject at data-composition-src="../outside/secret.html" without a finding about the file', async () => {
    await writeFile(
      path.join(project, 'index.html'),
      '<html data-composition-id="main" data-width="10" data-height="10" data-duration="1"><body><div data-composition-id="s" data-composition-src="../outside/secret.html" data-start="0"></div></body></html>',
    );
    const linted = lintProject(path.join(project, 'index.html'), { readFile: readInsideProject(project) });
    await expect(linted).rejects.toMatchObject({ code: 'path-outside-project' });
    await expect(linted).rejects.not.toThrow(MARKER);
  });
});
