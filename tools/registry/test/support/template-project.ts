import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { renderThroughApi, startDevServer } from './dev-server.js';
import { probe } from './media-check.js';
import { timed, type UserShell } from './user-shell.js';

/** `npx seekframe init my-app --template <name> --dir <fresh folder>` with the CLI installed from the registry; returns the project folder. */
export async function initTemplate(shell: UserShell, template: string): Promise<string> {
  const work = await shell.folder(`template-${template}`);
  await shell.run('npx', ['seekframe', 'init', 'my-app', '--template', template, '--dir', work], { cwd: shell.context.cliDir });
  return path.join(work, 'my-app');
}

const TEXT_FILES = /\.(ts|mts|mjs|js|json|jsonc)$/;

/**
 * The project stands alone: package.json depends on the published @seekframe/* versions (no
 * workspace:, file: or relative specs), and no source or config file names a path that leaves
 * the project folder (the monorepo's ../../core, ../../compositions, ../../node_modules...).
 */
export async function expectStandalone(shell: UserShell, dir: string): Promise<void> {
  const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as {
    name: string;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  expect(manifest.name).toBe('my-app');
  const published = new Map(shell.context.packed.map((pkg) => [pkg.name, pkg.version]));
  const all = { ...manifest.dependencies, ...manifest.devDependencies };
  for (const [name, spec] of Object.entries(all)) {
    expect(spec, `${name}`).not.toMatch(/^(workspace:|file:|link:|\.\.?\/)/);
    if (name === 'seekframe' || name.startsWith('@seekframe/'))
      expect(spec, `${name} pins the published version`).toBe(published.get(name));
  }
  const escaping: string[] = [];
  for (const file of await textFiles(dir)) {
    const text = await readFile(path.join(dir, file), 'utf8');
    for (const match of text.matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)) {
      const target = path.resolve(path.dirname(path.join(dir, file)), match[1]!);
      if (target !== dir && !target.startsWith(dir + path.sep)) escaping.push(`${file}: ${match[1]}`);
    }
  }
  expect(escaping, 'paths that leave the project folder').toEqual([]);
}

async function textFiles(root: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === '.next') continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await textFiles(root, relative)));
    else if (TEXT_FILES.test(entry.name)) files.push(relative);
  }
  return files;
}

/** The contract composition exactly as the installed @seekframe/render-api ships it. */
export function installedContractComposition(dir: string): string {
  return path.join(dir, 'node_modules/@seekframe/render-api/fixtures/contract-composition');
}

/**
 * The first steps of every template flow, inside its describe block: `seekframe init my-app
 * --template <name>` before the tests, then a test that the project stands alone and carries the
 * bundled composition where the template reads it. Returns the project folder (once created).
 */
export function useTemplateProject(shell: UserShell, template: string, compositionDir: string): () => string {
  let project = '';
  beforeAll(async () => {
    project = await timed(`${template}: init`, () => initTemplate(shell, template));
  });
  it('depends on the published @seekframe/* versions and reaches nothing outside its folder', async () => {
    await expectStandalone(shell, project);
    expect(existsSync(path.join(project, compositionDir, 'index.html'))).toBe(true);
  });
  return () => project;
}

/**
 * `PORT=<n> npm run dev` in the project, then one render of its own composition (ui-3d-reveal,
 * 1920x1080, 6 s; 2 fps = 12 frames) through `POST /api/render`: the file must be a playable MP4.
 */
export function itRendersWithNpmRunDev(
  shell: UserShell,
  template: string,
  project: () => string,
  env: () => Promise<Record<string, string>> | Record<string, string> = () => ({}),
): void {
  it('PORT=<n> npm run dev serves the template; POST /api/render gives a playable MP4', async () => {
    const server = await timed(`${template}: npm run dev (ready)`, async () => startDevServer(shell, { cwd: project(), env: await env() }));
    try {
      const video = await timed(`${template}: POST /api/render (ui-3d-reveal, 2 fps)`, () =>
        renderThroughApi(server.baseUrl, { fps: 2, quality: 'draft', variables: { title: 'From npm' } }),
      );
      const file = path.join(project(), 'smoke.mp4');
      await writeFile(file, video);
      const info = await probe(file);
      expect(info.streams[0]).toMatchObject({ codec_name: 'h264', width: 1920, height: 1080, nb_read_frames: '12' });
    } finally {
      await server.stop();
    }
  });
}
