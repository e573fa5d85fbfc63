import { SeekframeError } from './errors.js';

/**
 * Pure checks for paths and keys that arrive in requests (a preview file, a stored render's name,
 * an object key), shared by Node, the browser bundles and Workers (no `node:` import). A path that
 * passes names a place under its root on any backend: a folder, a bucket, a map of files.
 */

/** Longest storage key accepted (S3 and R2 allow 1024 bytes; a folder store needs no more). */
export const MAX_STORAGE_KEY_BYTES = 1024;

/**
 * Why `path` is not a relative POSIX path of plain names, or null when it is one. Refused: empty,
 * absolute, a backslash or a control character (NUL included), an empty, `.` or `..` segment.
 * Takes the path already percent-decoded, so `%2e%2e` and `%2f` have become `..` and `/`.
 */
export function relativePathProblem(path: string): string | null {
  if (typeof path !== 'string' || path === '') return 'is empty';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return 'contains a backslash or a control character';
  if (path.startsWith('/')) return 'is absolute';
  for (const segment of path.split('/')) {
    if (segment === '') return 'has an empty segment (a leading, trailing or double "/")';
    if (segment === '.' || segment === '..') return 'has a "." or ".." segment';
  }
  return null;
}

/**
 * A storage key is a relative POSIX path of plain names (`renders/abc.mp4`). Refused, with
 * `invalid-storage-key`: what `relativePathProblem` refuses, keys over 1024 bytes, and segments
 * starting with `.` (reserved for the store's own temp files), so a key can never name a place
 * outside the store, on any backend. Returns the segments.
 */
export function parseStorageKey(key: string): string[] {
  const refuse = (why: string): never => {
    const shown = typeof key === 'string' ? key.slice(0, 200) : String(key);
    throw new SeekframeError(
      'invalid-storage-key',
      `Storage key ${JSON.stringify(shown)} ${why}; use a relative path of plain names such as renders/<id>.mp4.`,
      {
        stage: 'output',
        details: { key: shown },
      },
    );
  };
  const problem = relativePathProblem(key);
  if (problem) return refuse(problem);
  if (utf8Length(key) > MAX_STORAGE_KEY_BYTES) return refuse(`is longer than ${MAX_STORAGE_KEY_BYTES} bytes`);
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment.startsWith('.'))
      return refuse(`has a segment starting with "." (${segment.slice(0, 40)}), which the store keeps for itself`);
  }
  return segments;
}

/**
 * The file name of a stored render when `key` is `renders/<name>` with one plain name (the only
 * keys the download routes `/renders/<name>` and `/r/<key>` serve), else null.
 */
export function storedRenderName(key: string): string | null {
  let segments: string[];
  try {
    segments = parseStorageKey(key);
  } catch {
    return null;
  }
  return segments.length === 2 && segments[0] === 'renders' ? segments[1]! : null;
}

/** Bytes of `text` in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD, as encoders write it). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}
