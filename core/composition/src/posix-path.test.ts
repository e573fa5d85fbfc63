import { expect, test } from 'vitest';
import { dirnamePosix, isRemoteUrl, normalizePosixPath, resolveSourcePath } from './posix-path.js';

test('normalizePosixPath', () => {
  expect(normalizePosixPath('a/./b//c/../d')).toBe('a/b/d');
  expect(normalizePosixPath('/x/../../y')).toBe('/y');
  expect(normalizePosixPath('../a/../../b')).toBe('../../b');
  expect(normalizePosixPath('a/..')).toBe('.');
});

test('dirnamePosix', () => {
  expect(dirnamePosix('p/a.html')).toBe('p');
  expect(dirnamePosix('a.html')).toBe('.');
  expect(dirnamePosix('/a.html')).toBe('/');
});

test('resolveSourcePath joins against the including file, / against the project root', () => {
  expect(resolveSourcePath('proj/scenes/a.html', '../parts/b.html?v=1#x')).toBe('proj/parts/b.html');
  expect(resolveSourcePath('index.html', 'b.html')).toBe('b.html');
  expect(resolveSourcePath('proj/scenes/a.html', '/parts/b.html', 'proj')).toBe('proj/parts/b.html');
});

test('isRemoteUrl', () => {
  expect(isRemoteUrl('https://x.test/a.html')).toBe(true);
  expect(isRemoteUrl('//cdn/a.html')).toBe(true);
  expect(isRemoteUrl('data:text/html,hi')).toBe(true);
  expect(isRemoteUrl('scenes/a.html')).toBe(false);
});
