import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { readPackageAsset, resolvePackageAsset } from './resolve-package-asset.js';

let dir: string;
beforeAll(async () => {
  // A package whose export points at a file nobody built.
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-assets-'));
  await mkdir(path.join(dir, 'node_modules', '@demo', 'kit'), { recursive: true });
  await writeFile(
    path.join(dir, 'node_modules', '@demo', 'kit', 'package.json'),
    JSON.stringify({ name: '@demo/kit', exports: { './bundle': './dist/kit.js', './ready': './ready.js' } }),
  );
  await writeFile(path.join(dir, 'node_modules', '@demo', 'kit', 'ready.js'), 'export const ok = 1;');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const errorOf = (run: () => unknown): SeekframeError => {
  try {
    run();
  } catch (error) {
    return error as SeekframeError;
  }
  throw new Error('did not throw');
};

describe('resolvePackageAsset', () => {
  it('resolves a package export to its file through the exports map', async () => {
    const file = resolvePackageAsset('@seekframe/runtime/bundle', { build: 'npm run build -w @seekframe/runtime' });
    expect(file).toMatch(/runtime[\\/]dist[\\/]seekframe-runtime\.js$/);
    expect(resolvePackageAsset('@demo/kit/ready', { build: 'x', from: path.join(dir, 'index.js') })).toBe(
      path.join(dir, 'node_modules', '@demo', 'kit', 'ready.js'),
    );
    expect(await readPackageAsset('@demo/kit/ready', { build: 'x', from: path.join(dir, 'index.js') })).toBe('export const ok = 1;');
  });

  it('an export whose file was never built fails with bundle-missing naming the package, the file and the build command', () => {
    const error = errorOf(() =>
      resolvePackageAsset('@demo/kit/bundle', {
        build: 'npm run build -w @demo/kit',
        from: path.join(dir, 'index.js'),
        what: 'the kit bundle',
      }),
    );
    expect(error).toBeInstanceOf(SeekframeError);
    expect(error.toJSON()).toMatchObject({
      code: 'bundle-missing',
      stage: 'serve',
      details: { package: '@demo/kit', specifier: '@demo/kit/bundle', build: 'npm run build -w @demo/kit' },
    });
    expect(error.message).toContain('The kit bundle (@demo/kit/bundle)');
    expect(error.message).toContain(path.join('dist', 'kit.js'));
    expect(error.message).toContain('run `npm run build -w @demo/kit`');
  });

  it('a package that is not installed, or an export it does not have, is the same error', () => {
    expect(
      errorOf(() => resolvePackageAsset('@demo/absent/bundle', { build: 'npm install', from: path.join(dir, 'index.js') })).toJSON(),
    ).toMatchObject({ code: 'bundle-missing', details: { package: '@demo/absent' } });
    expect(
      errorOf(() => resolvePackageAsset('@demo/kit/other', { build: 'npm install', from: path.join(dir, 'index.js') })).toJSON(),
    ).toMatchObject({ code: 'bundle-missing', details: { package: '@demo/kit' } });
  });
});
