import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { packageSearchRoots } from '../resolve-cdn-url.js';
import { BUNDLED_FONT_PACKAGES } from './bundled-font-packages.js';
import { findFontPackage } from './font-packages.js';

describe('BUNDLED_FONT_PACKAGES', () => {
  it('lists exactly the @fontsource dependencies of the producer, and each one loads', async () => {
    const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const deps = Object.keys(manifest.dependencies)
      .filter((d) => d.startsWith('@fontsource/'))
      .map((d) => d.slice('@fontsource/'.length));
    expect([...BUNDLED_FONT_PACKAGES].sort()).toEqual(deps.sort());
    for (const id of BUNDLED_FONT_PACKAGES) {
      const pkg = await findFontPackage(id, packageSearchRoots(process.cwd()));
      expect(
        pkg?.files.some((f) => f.subset === 'latin' && f.weight === 400 && f.style === 'normal'),
        id,
      ).toBe(true);
    }
  });
});
