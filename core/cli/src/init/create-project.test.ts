import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lintProject, parseVariableDeclarationsAttribute } from '@seekframe/composition';
import { readProjectFile } from '@seekframe/producer/project-files';
import { runCli } from '../../test/run-cli.js';
import { createRequire } from 'node:module';
import { createProject } from './create-project.js';
import { STARTER_LIBRARIES } from './project-templates.js';

let parent: string;
beforeEach(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), 'seekframe-init-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

describe('createProject', () => {
  it('writes index.html, README.md, AGENTS.md, .gitignore and package.json with the project name filled in', async () => {
    const created = await createProject({ name: 'my-video', parentDir: parent });
    expect(created.dir).toBe(path.join(parent, 'my-video'));
    expect((await readdir(created.dir)).sort()).toEqual(['.gitignore', 'AGENTS.md', 'README.md', 'index.html', 'package.json']);
    const html = await readFile(path.join(created.dir, 'index.html'), 'utf8');
    expect(html).toContain('<title>my-video</title>');
    expect(html).not.toContain('{{');
    const readme = await readFile(path.join(created.dir, 'README.md'), 'utf8');
    expect(readme.startsWith('# my-video\n')).toBe(true);
    expect(readme).toContain('getVariables()');
    const agents = await readFile(path.join(created.dir, 'AGENTS.md'), 'utf8');
    expect(agents).toContain('# Writing a Seekframe composition');
    expect(agents).toContain('data-composition-variables');
  });

  it('gives package.json render, preview and lint scripts that call seekframe', async () => {
    const { dir } = await createProject({ name: 'promo', parentDir: parent });
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
      name: string;
      private: boolean;
      scripts: Record<string, string>;
    };
    expect(pkg.name).toBe('promo');
    expect(pkg.private).toBe(true);
    expect(pkg.scripts).toEqual({
      preview: 'seekframe preview .',
      render: 'seekframe render . --output renders/promo.mp4',
      lint: 'seekframe lint .',
    });
  });

  it('depends on the CLI and on the libraries its page loads, and takes them from node_modules, never from a CDN', async () => {
    const { dir } = await createProject({ name: 'deps', parentDir: parent, version: '1.2.3' });
    const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).toEqual({ seekframe: '^1.2.3', gsap: `^${STARTER_LIBRARIES.gsap}` });
    const html = await readFile(path.join(dir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/https?:\/\//);
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['node_modules/gsap/dist/gsap.min.js']);
    // The file exists in the package at the version the monorepo installs (the same major as the starter's).
    const manifest = createRequire(import.meta.url).resolve('gsap/package.json');
    const installed = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
    expect(installed.version.split('.')[0]).toBe(STARTER_LIBRARIES.gsap.split('.')[0]);
    expect((await readFile(path.join(path.dirname(manifest), 'dist/gsap.min.js'))).length).toBeGreaterThan(1000);
    const readme = await readFile(path.join(dir, 'README.md'), 'utf8');
    expect(readme).toContain(`^${STARTER_LIBRARIES.gsap}`);
    expect(readme).not.toContain('{{');
  });

  it('creates a composition that lints clean and declares one variable of every type', async () => {
    const { dir } = await createProject({ name: 'clean-start', parentDir: parent });
    const entry = path.join(dir, 'index.html');
    expect(await lintProject(entry, { readFile: readProjectFile })).toEqual([]);
    const html = await readFile(entry, 'utf8');
    const attr = /data-composition-variables='([^']*)'/.exec(html)?.[1] ?? '';
    const parsed = parseVariableDeclarationsAttribute(attr);
    expect(parsed.problems).toEqual([]);
    expect(parsed.declarations.map((d) => d.type).sort()).toEqual(['boolean', 'color', 'enum', 'number', 'string']);
    expect(html).toMatch(/data-width="1280"[\s\S]*data-height="720"[\s\S]*data-duration="4"/);
    expect(html).toContain('<script src="node_modules/gsap/dist/gsap.min.js"></script>');
  });

  it('fills an existing empty folder', async () => {
    await mkdir(path.join(parent, 'empty'));
    const created = await createProject({ name: 'empty', parentDir: parent });
    expect(created.files).toContain('index.html');
  });

  it('refuses a non-empty folder and leaves it untouched', async () => {
    const dir = path.join(parent, 'taken');
    await mkdir(dir);
    await writeFile(path.join(dir, 'index.html'), 'mine');
    await expect(createProject({ name: 'taken', parentDir: parent })).rejects.toMatchObject({ code: 'target-not-empty' });
    expect(await readFile(path.join(dir, 'index.html'), 'utf8')).toBe('mine');
    expect(await readdir(dir)).toEqual(['index.html']);
  });

  it('refuses a name that is taken by a file', async () => {
    await writeFile(path.join(parent, 'file'), '');
    await expect(createProject({ name: 'file', parentDir: parent })).rejects.toMatchObject({ code: 'target-exists' });
  });
});

describe('seekframe init', () => {
  it('creates the project under --dir, prints next steps, and the result passes seekframe lint', async () => {
    const run = await runCli(['init', 'demo', '--dir', 'projects'], { cwd: parent });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Created projects/demo');
    expect(run.stdout).toContain('cd projects/demo');
    const lint = await runCli(['lint', 'projects/demo', '--json'], { cwd: parent });
    expect(lint.code).toBe(0);
    expect(JSON.parse(lint.stdout)).toEqual({ findings: [], errors: 0, warnings: 0, notes: 0 });
  });

  it('--json prints the folder and files', async () => {
    const run = await runCli(['init', 'json-demo', '--json'], { cwd: parent });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      dir: path.join(parent, 'json-demo'),
      template: 'starter',
      files: ['index.html', 'README.md', 'AGENTS.md', '.gitignore', 'package.json'],
    });
  });

  it('exits 2 for an invalid name and 1 for a non-empty folder', async () => {
    const bad = await runCli(['init', 'Bad Name'], { cwd: parent });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Project name "Bad Name" can\'t be used');
    await runCli(['init', 'twice'], { cwd: parent });
    const again = await runCli(['init', 'twice'], { cwd: parent });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists and is not empty');
  });

  it('exits 2 for an unknown --template and names the four templates', async () => {
    const run = await runCli(['init', 'x', '--template', 'heroku'], { cwd: parent });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown template "heroku": use one of starter, modal-function, vercel-sandbox, cloudflare-container.');
  });
});
