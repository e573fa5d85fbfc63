import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { copyDefaultComposition } from '../scripts/copy-default-composition.mjs';

const SOURCE = fileURLToPath(new URL('../../../compositions/ui-3d-reveal', import.meta.url));
const temps: string[] = [];
afterAll(async () => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('scripts/copy-default-composition.mjs (run before next build and next dev)', () => {
  it('puts the bundled composition in public/compositions/ui-3d-reveal, every file it renders from, byte for byte, and drops stale files', async () => {
    const app = await mkdtemp(path.join(os.tmpdir(), 'seekframe-vercel-app-'));
    temps.push(app);
    const stale = path.join(app, 'public/compositions/ui-3d-reveal');
    await mkdir(stale, { recursive: true });
    await writeFile(path.join(stale, 'old.js'), 'stale');
    const target = (await copyDefaultComposition(app, SOURCE)) as string;
    expect(target).toBe(stale);
    const renderFiles = (await readdir(SOURCE, { withFileTypes: true }))
      .filter((e) => e.isFile() && e.name !== 'README.md')
      .map((e) => e.name)
      .sort();
    expect((await readdir(target)).sort()).toEqual(renderFiles);
    for (const name of renderFiles)
      expect((await readFile(path.join(target, name))).equals(await readFile(path.join(SOURCE, name))), name).toBe(true);
  });
});
