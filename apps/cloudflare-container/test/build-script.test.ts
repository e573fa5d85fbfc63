import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_COMPOSITION_DIR, resolveCompositionDir } from '../scripts/build.mjs';

/** PREVIEW_COMPOSITION_DIR: the repository's compositions/<name>, or the app's public/compositions/<name>. */
const appDir = new URL('../', import.meta.url).pathname;
const own = join(appDir, 'public/compositions', `test-own-${process.pid}`);
afterAll(async () => {
  await rm(own, { recursive: true, force: true });
});

describe('scripts/build.mjs composition folder', () => {
  it('defaults to compositions/ui-3d-reveal of the repository', () => {
    expect(DEFAULT_COMPOSITION_DIR).toBe('compositions/ui-3d-reveal');
    expect(resolveCompositionDir(DEFAULT_COMPOSITION_DIR)).toBe(new URL('../../../compositions/ui-3d-reveal', import.meta.url).pathname);
  });

  it('finds your own composition in public/compositions/<name>, relative to the app', async () => {
    await mkdir(own, { recursive: true });
    await writeFile(
      join(own, 'index.html'),
      '<!doctype html><html data-composition-id="own" data-width="160" data-height="90" data-duration="1"></html>',
    );
    expect(resolveCompositionDir(`public/compositions/test-own-${process.pid}`)).toBe(own);
  });

  it('names the folders it tried and the fix when there is no index.html', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'seekframe-cf-empty-'));
    try {
      expect(() => resolveCompositionDir(empty)).toThrow(/PREVIEW_COMPOSITION_DIR=.*no index\.html.*public\/compositions\/<name>/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
