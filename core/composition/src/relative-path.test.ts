import { describe, expect, it } from 'vitest';
import { parseStorageKey, relativePathProblem, storedRenderName } from './relative-path.js';

describe('relativePathProblem', () => {
  it('accepts relative paths of plain names', () => {
    for (const path of ['index.html', 'assets/logo.png', 'a b/c+d@e~f.json', '..a/b..', '.well-known/x'])
      expect({ path, problem: relativePathProblem(path) }).toEqual({ path, problem: null });
  });

  it.each(['', '/etc/passwd', '..', '.', '../x', 'a/../../x', 'a/./b', 'a//b', 'a/', 'a\\..\\b', '..\\x', 'a\0b', 'a\nb', 'a\u007fb'])(
    'refuses %j',
    (path) => {
      expect(relativePathProblem(path)).toEqual(expect.any(String));
    },
  );
});

describe('parseStorageKey', () => {
  it('takes relative paths of plain names', () => {
    expect(parseStorageKey('renders/abc.mp4')).toEqual(['renders', 'abc.mp4']);
    expect(parseStorageKey('a b+c@d~e_f-1.json')).toEqual(['a b+c@d~e_f-1.json']);
  });

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['../x', 'parent'],
    ['a/../../x', 'parent inside'],
    ['a/./b', 'dot segment'],
    ['a//b', 'double slash'],
    ['a/', 'trailing slash'],
    ['a\\..\\b', 'backslash'],
    ['a\0b', 'NUL'],
    ['a\nb', 'newline'],
    ['.hidden', 'dot name'],
    ['renders/.1-ab.tmp', 'a temp name'],
    ['x'.repeat(1025), 'too long'],
    ['é'.repeat(513), 'too long in bytes'],
  ])('refuses %j (%s) with invalid-storage-key', (key) => {
    expect(() => parseStorageKey(key)).toThrowError(expect.objectContaining({ code: 'invalid-storage-key' }));
  });
});

describe('storedRenderName', () => {
  it('is the name of renders/<name> and nothing else', () => {
    expect(storedRenderName('renders/abc.mp4')).toBe('abc.mp4');
    for (const key of [
      'renders/../private/secret.txt',
      'renders/..',
      'renders/.env',
      'private/secret.txt',
      'renders/a/b.mp4',
      'renders/',
      'renders',
      'Renders/x.mp4',
      'renders/a\\..\\b',
      'renders/%2e%2e',
    ]) {
      expect({ key, name: storedRenderName(key) }).toEqual({ key, name: key === 'renders/%2e%2e' ? '%2e%2e' : null });
    }
  });
});
