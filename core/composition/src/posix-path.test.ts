import { expect, test } from 'vitest';
import { dirnamePosix, isRemoteUrl, normalizePosixPath, relativePosixPath, resolveSourcePath } from './posix-path.js';

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

test('relativePosixPath names a path from a folder', () => {
  expect(relativePosixPath('/srv/job/project', '/srv/job/project/parts/a.html')).toBe('parts/a.html');
  expect(relativePosixPath('/srv/job/project', '/srv/job/etc/passwd')).toBe('../etc/passwd');
  expect(relativePosixPath('/srv/job/project', '/etc/passwd')).toBe('../../../etc/passwd');
  expect(relativePosixPath('proj', 'proj/a/b.html')).toBe('a/b.html');
  expect(relativePosixPath('.', 'a.html')).toBe('a.html');
  expect(relativePosixPath('/srv/p', '/srv/p')).toBe('.');
});

test('isRemoteUrl', () => {
  expect(isRemoteUrl('https://x.test/a.html')).toBe(true);
  expect(isRemoteUrl('//cdn/a.html')).toBe(true);
  expect(isRemoteUrl('data:text/html,hi')).toBe(true);
  expect(isRemoteUrl('scenes/a.html')).toBe(false);
});
