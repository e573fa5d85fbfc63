import { mkdtemp, mkdir, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCdnUrl, packageSearchRoots, resolveCdnUrl } from './resolve-cdn-url.js';
import { isNpmPackageName } from './npm-package-name.js';

describe('CDN URL mapping', () => {
  it('parses jsdelivr and unpkg URLs, scoped packages included', () => {
    expect(parseCdnUrl('https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js')).toEqual({
      pkg: 'gsap',
      version: '3.12.5',
      file: 'dist/gsap.min.js',
    });
    expect(parseCdnUrl('https://unpkg.com/@scope/pkg@1.2.0/a/b.js?module')).toEqual({
      pkg: '@scope/pkg',
      version: '1.2.0',
      file: 'a/b.js',
    });
    expect(parseCdnUrl('https://unpkg.com/gsap')).toEqual({ pkg: 'gsap', version: undefined, file: '' });
    expect(parseCdnUrl('https://unpkg.com/JSONStream@1/index.js')).toEqual({ pkg: 'JSONStream', version: '1', file: 'index.js' });
    expect(parseCdnUrl('https://example.com/npm/gsap@3/x.js')).toBeNull();
    expect(parseCdnUrl('https://cdn.jsdelivr.net/gh/user/repo/x.js')).toBeNull();
    expect(parseCdnUrl('not a url')).toBeNull();
  });

  it('maps gsap to the copy installed with Seekframe, from any project folder', async () => {
    const roots = packageSearchRoots(os.tmpdir());
    const file = await resolveCdnUrl('https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js', roots);
    expect(file).toMatch(/node_modules[\\/]gsap[\\/]dist[\\/]gsap\.min\.js$/);
    expect(await resolveCdnUrl('https://unpkg.com/gsap', roots)).toMatch(/gsap[\\/]dist[\\/]gsap\.js$/);
  });

  it('leaves other majors, unknown packages and missing files to the network', async () => {
    const roots = packageSearchRoots(os.tmpdir());
    expect(await resolveCdnUrl('https://cdn.jsdelivr.net/npm/gsap@2.1.3/dist/gsap.min.js', roots)).toBeNull();
    expect(await resolveCdnUrl('https://cdn.jsdelivr.net/npm/no-such-pkg-xyz@1/x.js', roots)).toBeNull();
    expect(await resolveCdnUrl('https://cdn.jsdelivr.net/npm/gsap@3/dist/nope.js', roots)).toBeNull();
  });
});

describe('npm package names', () => {
  it('accepts what npm publishes, refuses what would name a folder outside node_modules/<name>', () => {
    for (const name of ['gsap', '@scope/pkg', 'JSONStream', 'lodash.merge', 'a-b_c', '@fontsource/inter'])
      expect({ name, ok: isNpmPackageName(name) }).toEqual({ name, ok: true });
    const refused = [
      '',
      '.',
      '..',
      '.env',
      '@scope/..',
      '@scope/.',
      '@../x',
      '@./x',
      '@/x',
      '../x',
      'a/b',
      '@a/b/c',
      'a\\b',
      '..\\x',
      'a%2fb',
      '%2e%2e',
      'a\u0000b',
      'a\nb',
      ' a',
      'node_modules',
      '_x',
    ];
    for (const name of refused) expect({ name, ok: isNpmPackageName(name) }).toEqual({ name, ok: false });
  });
});

/**
 * The folder above a project has a package.json (a monorepo, a home folder with npm init) and a
 * secret next to it. Before the fix `..@latest` named that folder as a package and handed out
 * any file under it.
 */
describe('CDN URLs that try to leave node_modules/<package>', () => {
  const SECRET = 'SEEKFRAME-CDN-SECRET-7f3a';
  let dir: string;
  let roots: string[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cdn-escape-'));
    const project = path.join(dir, 'project');
    const modules = path.join(project, 'node_modules');
    await writeFile(path.join(dir, 'package.json'), '{"name":"ancestor","version":"1.0.0","main":".env"}');
    await writeFile(path.join(dir, '.env'), `TOKEN=${SECRET}`);
    await mkdir(path.join(dir, 'private'));
    await writeFile(path.join(dir, 'private', 'x.txt'), SECRET);
    await mkdir(path.join(modules, 'good', 'dist'), { recursive: true });
    await writeFile(path.join(modules, 'good', 'package.json'), '{"name":"good","version":"1.2.0","main":"dist/good.js"}');
    await writeFile(path.join(modules, 'good', 'dist', 'good.js'), 'export const good = 1;');
    // A symlink inside a package that leads out of it, to a file and to a folder.
    await symlink(path.join(dir, '.env'), path.join(modules, 'good', 'dist', 'linked.js'));
    await symlink(path.join(dir, 'private'), path.join(modules, 'good', 'shared'));
    // A manifest whose entry point leaves the package.
    await mkdir(path.join(modules, 'evil-main'));
    await writeFile(path.join(modules, 'evil-main', 'package.json'), '{"name":"evil-main","version":"1.0.0","main":"../../../.env"}');
    // A scoped package, and a scope folder holding a package.json of its own.
    await mkdir(path.join(modules, '@scope', 'pkg'), { recursive: true });
    await writeFile(path.join(modules, '@scope', 'package.json'), '{"name":"scope-folder","version":"1.0.0"}');
    await writeFile(path.join(modules, '@scope', 'pkg', 'package.json'), '{"name":"@scope/pkg","version":"2.0.0","main":"x.js"}');
    await writeFile(path.join(modules, '@scope', 'pkg', 'x.js'), 'export default 2;');
    // A package (a workspace link in a monorepo, typically) with hidden files of its own.
    await writeFile(path.join(modules, 'good', '.env'), `TOKEN=${SECRET}`);
    await mkdir(path.join(modules, 'good', '.config'));
    await writeFile(path.join(modules, 'good', '.config', 'keys.json'), SECRET);
    await writeFile(path.join(modules, '@scope', 'pkg', '.npmrc'), SECRET);
    await symlink(path.join(modules, 'good', '.env'), path.join(modules, 'good', 'dist', 'env.js'));
    // A package installed as a link (pnpm, workspaces): its ordinary files still load.
    await mkdir(path.join(dir, 'store', 'linked-pkg'), { recursive: true });
    await writeFile(path.join(dir, 'store', 'linked-pkg', 'package.json'), '{"name":"linked-pkg","version":"1.0.0","main":"index.js"}');
    await writeFile(path.join(dir, 'store', 'linked-pkg', 'index.js'), 'export default 1;');
    await writeFile(path.join(dir, 'store', 'linked-pkg', '.env'), SECRET);
    await symlink(path.join(dir, 'store', 'linked-pkg'), path.join(modules, 'linked-pkg'));
    await mkdir(path.join(modules, 'hidden-main'));
    await writeFile(path.join(modules, 'hidden-main', 'package.json'), '{"name":"hidden-main","version":"1.0.0","main":".env"}');
    await writeFile(path.join(modules, 'hidden-main', '.env'), SECRET);
    roots = packageSearchRoots(project);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("never reads a package's hidden files or folders (a name starting with '.'): not local, left to the network", async () => {
    for (const url of [
      'https://unpkg.com/good@1/.env',
      'https://cdn.jsdelivr.net/npm/good/.config/keys.json',
      'https://unpkg.com/@scope/pkg@2/.npmrc',
      'https://unpkg.com/hidden-main@1',
      'https://unpkg.com/good@1/dist/env.js',
      'https://unpkg.com/linked-pkg@1/.env',
    ]) {
      expect(await resolveCdnUrl(url, roots), url).toBeNull();
    }
    expect(await resolveCdnUrl('https://unpkg.com/linked-pkg@1', roots)).toBe(
      path.join(await realpath(dir), 'store', 'linked-pkg', 'index.js'),
    );
  });

  it('still serves files really inside a package', async () => {
    expect(await resolveCdnUrl('https://unpkg.com/good@1/dist/good.js', roots)).toBe(
      path.join(dir, 'project', 'node_modules', 'good', 'dist', 'good.js'),
    );
    expect(await resolveCdnUrl('https://cdn.jsdelivr.net/npm/good@latest', roots)).toMatch(/good[\\/]dist[\\/]good\.js$/);
    expect(await resolveCdnUrl('https://unpkg.com/@scope/pkg@2', roots)).toMatch(/@scope[\\/]pkg[\\/]x\.js$/);
  });

  const attacks = [
    'https://cdn.jsdelivr.net/npm/..@latest/.env',
    'https://cdn.jsdelivr.net/npm/..@latest/private/x.txt',
    'https://unpkg.com/..@1/.env',
    'https://unpkg.com/.@1/../.env',
    'https://unpkg.com/%2e%2e@1/.env',
    'https://unpkg.com/%2E%2e@1/private/x.txt',
    'https://UNPKG.com/..@1/.env',
    'https://Cdn.JsDelivr.net/npm/..@LATEST/.env',
    'https://unpkg.com/..%2f..@1/.env',
    'https://unpkg.com/..%2F..%2Fprivate@1/x.txt',
    'https://unpkg.com/@scope/..@1/.env',
    'https://unpkg.com/@scope%2f..@1/.env',
    'https://unpkg.com/@scope/%2E%2E@1/.env',
    'https://unpkg.com/@..%2f..@1/.env',
    'https://unpkg.com/good@1/..%2f..%2f..%2f.env',
    'https://unpkg.com/good@1/dist/..%2F..%2F..%2F..%2F.env',
    'https://unpkg.com/good@1/%2e%2e/%2e%2e/%2e%2e/.env',
    'https://unpkg.com/good@1/..%5c..%5c..%5c.env',
    'https://unpkg.com/good@1/dist/a%00b',
    'https://unpkg.com/good@1/dist/linked.js',
    'https://unpkg.com/good@1/shared/x.txt',
    'https://unpkg.com/good@1/shared/missing.txt',
    'https://unpkg.com/evil-main@1',
    'https://unpkg.com/good@1/%zz',
  ];

  it.each(attacks)('%s: refused with remote-asset-failed, never a path outside the package', async (url) => {
    const attempt = resolveCdnUrl(url, roots);
    await expect(attempt).rejects.toMatchObject({ code: 'remote-asset-failed', retryable: false, details: { url } });
    await expect(attempt).rejects.not.toThrow(SECRET);
    await expect(attempt).rejects.not.toThrow(dir);
  });

  it('a capitalised name is looked up as written: at most the package of that name, never another folder', async () => {
    // Valid for old packages (JSONStream). A case-sensitive disk has no GOOD folder (null: left
    // to the network); a case-insensitive one finds the good package, still only inside it.
    const file = await resolveCdnUrl('https://unpkg.com/GOOD@1/dist/good.js', roots);
    if (file !== null) expect(file.toLowerCase()).toBe(path.join(dir, 'project', 'node_modules', 'good', 'dist', 'good.js').toLowerCase());
  });
});
