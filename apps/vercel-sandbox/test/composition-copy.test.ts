import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The template ships its own copy of the bundled composition (public/compositions/ui-3d-reveal),
// so a fork of the app is complete; this keeps the copy equal to compositions/ui-3d-reveal.
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const COPY = path.join(APP_DIR, 'public/compositions/ui-3d-reveal');
const SOURCE = path.join(APP_DIR, '../../compositions/ui-3d-reveal');

describe('public/compositions/ui-3d-reveal', () => {
  it('is the same composition as compositions/ui-3d-reveal (every file it renders from)', async () => {
    const renderFiles = (await readdir(SOURCE, { withFileTypes: true })).filter((e) => e.isFile() && e.name !== 'README.md').map((e) => e.name).sort();
    expect((await readdir(COPY)).sort()).toEqual(renderFiles);
    for (const name of renderFiles) {
      expect((await readFile(path.join(COPY, name), 'utf8')) === (await readFile(path.join(SOURCE, name), 'utf8')), `${name} differs: copy compositions/ui-3d-reveal/${name} again`).toBe(true);
    }
  });
});
