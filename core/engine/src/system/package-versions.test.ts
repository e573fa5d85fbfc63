import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dpkgVersions, fontPackageVersions, readImageVersions } from './package-versions.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-package-versions-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const record = {
  debian: '12.15',
  packages: {
    'chromium-headless-shell': { version: '156.0.8078.108-1~deb12u1', preferred: '156.0.8078.79-1~deb12u1' },
    'fonts-noto-core': { version: '20201225-1', preferred: '20201225-1' },
    fontconfig: { version: '2.14.1-4', preferred: null },
  },
  fallbacks: ['chromium-headless-shell=156.0.8078.79-1~deb12u1'],
};

describe('readImageVersions / fontPackageVersions', () => {
  it("inside an image: the build's record, and the font packages from it", async () => {
    const file = path.join(dir, 'image-versions.json');
    await writeFile(file, JSON.stringify(record));
    const env = { SEEKFRAME_IMAGE_VERSIONS: file };
    expect(await readImageVersions(env)).toEqual(record);
    expect(await fontPackageVersions(env)).toEqual({ 'fonts-noto-core': '20201225-1', fontconfig: '2.14.1-4' });
  });

  it('outside an image there is no record; a broken record is an error naming the file', async () => {
    expect(await readImageVersions({})).toBeNull();
    expect(await readImageVersions({ SEEKFRAME_IMAGE_VERSIONS: path.join(dir, 'missing.json') })).toBeNull();
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, JSON.stringify({ debian: 12 }));
    await expect(readImageVersions({ SEEKFRAME_IMAGE_VERSIONS: broken })).rejects.toThrow(
      `SEEKFRAME_IMAGE_VERSIONS=${broken} is not an image version record`,
    );
  });

  // Debian/Ubuntu hosts (scripts/setup.sh installs fonts-noto-core there).
  it.skipIf(!existsSync('/usr/bin/dpkg-query'))(
    'on a Debian host: installed packages by dpkg, names it does not know left out',
    async () => {
      const versions = await dpkgVersions(['fonts-noto-core', 'seekframe-no-such-package']);
      expect(Object.keys(versions ?? {})).toEqual(['fonts-noto-core']);
      expect(await fontPackageVersions({})).toMatchObject({ 'fonts-noto-core': versions!['fonts-noto-core'] });
    },
  );
});
