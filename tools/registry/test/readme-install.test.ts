import { spawn } from 'node:child_process';
import { copyFile, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_TO_NPM } from '../src/publication.js';
import { REPO_ROOT } from '../src/public-packages.js';
import { probe } from './support/media-check.js';
import { nodeModulesAbove } from './support/outside-folder.js';
import { startUnpublishedRegistry, type UnpublishedRegistry } from './support/unpublished-registry.js';
import { userShell } from './support/user-shell.js';

// The README's install instructions against the truth: while the packages are not on the public
// registry (PUBLISHED_TO_NPM), the README and Getting started must say so where the install block
// stands, and the way they give instead (the ```sh tarballs block) must work as written, against a
// registry that, like registry.npmjs.org today, has none of Seekframe's packages.

const shell = await userShell();
const MARKER = /^```sh tarballs\s*$/;

interface Block {
  file: string;
  line: number;
  script: string;
}

function tarballBlocks(file: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    if (!MARKER.test(lines[i]!)) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: a tarballs block is never closed`);
    blocks.push({ file, line: i + 1, script: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const PAGES = ['README.md', 'docs/guide/getting-started.md'];
const UNPUBLISHED_NOTE = /Not on the public npm registry yet/;

describe('the README install block and the truth', () => {
  let registry: UnpublishedRegistry;

  beforeAll(async () => {
    const ours = new Set(shell.context.packed.map((pkg) => pkg.name));
    registry = await startUnpublishedRegistry(shell.context.registry, ours);
  });
  afterAll(async () => {
    await registry?.close();
  });

  it.each(PAGES)('%s says whether the packages are on npm, as tools/registry/src/publication.ts records', async (page) => {
    const text = await readFile(path.join(REPO_ROOT, page), 'utf8');
    if (PUBLISHED_TO_NPM) expect(text).not.toMatch(UNPUBLISHED_NOTE);
    else {
      expect(text).toMatch(UNPUBLISHED_NOTE);
      // The note stands before the first `npx seekframe init`, where a reader tries it.
      expect(text.search(UNPUBLISHED_NOTE)).toBeLessThan(text.indexOf('npx seekframe init'));
      expect(text).toContain('npm run release -- --pack-only --out-dir ~/seekframe-tarballs');
    }
  });

  it("the README's tarballs block installs, makes a project and renders it, with none of our packages on the registry", async () => {
    const [block, ...others] = tarballBlocks('README.md', await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8'));
    expect(block, 'README.md has no ```sh tarballs block').toBeDefined();
    expect(others).toEqual([]);
    // The block names the version of every tarball it installs: it must be the version being packed.
    const version = shell.context.packed.find((pkg) => pkg.name === 'seekframe')!.version;
    expect(block!.script).toContain(`-${version}.tgz`);

    // A home folder of the user's own: ~/seekframe-tarballs holds what `release --pack-only` wrote.
    const home = await shell.folder('readme-install');
    expect(await nodeModulesAbove(home)).toEqual([]);
    await mkdir(path.join(home, 'seekframe-tarballs'));
    for (const pkg of shell.context.packed) await copyFile(pkg.tarball, path.join(home, 'seekframe-tarballs', path.basename(pkg.tarball)));

    const env = shell.env({ HOME: home, npm_config_registry: registry.url, npm_config_userconfig: path.join(home, '.npmrc') });
    const result = await bash(block!.script, home, env);
    expect(result.code, `README.md:${block!.line}\n${block!.script}\n--- output ---\n${result.output}`).toBe(0);
    console.log(`readme-install: npm asked the registry for ${[...new Set(registry.refused)].join(', ') || 'none of our packages'} (404)`);
    // npm may still ask the registry about our names (and get the 404 users get today); what it
    // installed of ours came from the tarballs, every one.
    const lock = JSON.parse(await readFile(path.join(home, 'my-video', 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { resolved?: string }>;
    };
    const ours = Object.entries(lock.packages).filter(([key]) => /node_modules\/(seekframe|@seekframe\/[^/]+)$/.test(key));
    expect(ours.map(([key]) => key)).toEqual(expect.arrayContaining(['node_modules/seekframe', 'node_modules/@seekframe/producer']));
    for (const [key, entry] of ours) expect(entry.resolved, key).toMatch(/^file:.*\.tgz$/);
    const video = path.join(home, 'my-video', 'renders', 'my-video.mp4');
    expect((await stat(video)).size).toBeGreaterThan(0);
    const { streams, duration } = await probe(video);
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(duration).toBeCloseTo(4, 1);
  });
});
