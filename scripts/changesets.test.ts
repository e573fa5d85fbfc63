import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('..', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/** Every workspace's package.json, by path relative to the root. */
async function manifests(root: string): Promise<Map<string, Manifest>> {
  const found = new Map<string, Manifest>();
  for (const group of ['core', 'adapters', 'apps']) {
    for (const entry of await readdir(path.join(root, group), { withFileTypes: true })) {
      const file = path.join(group, entry.name, 'package.json');
      const text = await readFile(path.join(root, file), 'utf8').catch(() => null);
      if (entry.isDirectory() && text) found.set(file, JSON.parse(text) as Manifest);
    }
  }
  found.set('bench/package.json', JSON.parse(await readFile(path.join(root, 'bench/package.json'), 'utf8')) as Manifest);
  return found;
}

// `npx changeset version` with this repository's config, on a copy of its package.json files.
describe('Changesets', () => {
  let copy: string | undefined;
  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it('a minor change to one package moves every public package to the same next minor and every internal range with it', async () => {
    copy = await mkdtemp(path.join(os.tmpdir(), 'seekframe-changesets-'));
    const before = await manifests(repo);
    await cp(path.join(repo, '.changeset'), path.join(copy, '.changeset'), { recursive: true });
    await cp(path.join(repo, 'package.json'), path.join(copy, 'package.json'));
    for (const file of before.keys()) {
      await mkdir(path.dirname(path.join(copy, file)), { recursive: true });
      await cp(path.join(repo, file), path.join(copy, file));
    }
    await symlink(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));
    await writeFile(path.join(copy, '.changeset/test-change.md'), '---\n"@seekframe/composition": minor\n---\n\nA change.\n');
    await run(path.join(repo, 'node_modules/.bin/changeset'), ['version'], { cwd: copy });

    const after = await manifests(copy);
    const current = before.get('core/cli/package.json')!.version;
    const [major, minor] = current.split('.').map(Number) as [number, number];
    // A minor bump stays a minor bump for all (an optional peer dependency must not turn it into a major one).
    const next = `${major}.${minor + 1}.0`;
    const published = new Set([...before.values()].filter((pkg) => !pkg.private).map((pkg) => pkg.name));
    for (const [file, pkg] of after) {
      if (!pkg.private) expect(pkg.version, file).toBe(next);
      for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
        if (published.has(name)) expect(range.replace(/^[\^~]/, ''), `${file} -> ${name}`).toBe(next);
      }
    }
    expect(await readFile(path.join(copy, 'core/composition/CHANGELOG.md'), 'utf8')).toContain('A change.');
  });
});
