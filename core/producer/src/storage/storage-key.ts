import { SeekframeError } from '@seekframe/composition';

/** Longest key accepted (S3 and R2 allow 1024 bytes; a folder store needs no more). */
export const MAX_STORAGE_KEY_BYTES = 1024;

/**
 * A storage key is a relative POSIX path of plain names (`renders/abc.mp4`). Refused, with
 * `invalid-storage-key`: empty, absolute, `\`, NUL or control characters, empty, `.` or `..`
 * segments, and segments starting with `.` (reserved for the store's own temp files), so a key
 * can never name a place outside the store, on any backend. Returns the segments.
 */
export function parseStorageKey(key: string): string[] {
  const refuse = (why: string): never => {
    throw new SeekframeError('invalid-storage-key', `Storage key ${JSON.stringify(key.slice(0, 200))} ${why}; use a relative path of plain names such as renders/<id>.mp4.`, {
      stage: 'output',
      details: { key: key.slice(0, 200) },
    });
  };
  if (typeof key !== 'string' || key === '') return refuse('is empty');
  if (Buffer.byteLength(key) > MAX_STORAGE_KEY_BYTES) return refuse(`is longer than ${MAX_STORAGE_KEY_BYTES} bytes`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(key)) return refuse('contains a backslash or a control character');
  if (key.startsWith('/')) return refuse('is absolute');
  const segments = key.split('/');
  for (const segment of segments) {
    if (segment === '') return refuse('has an empty segment (a leading, trailing or double "/")');
    if (segment === '.' || segment === '..') return refuse('has a "." or ".." segment');
    if (segment.startsWith('.')) return refuse(`has a segment starting with "." (${segment.slice(0, 40)}), which the store keeps for itself`);
  }
  return segments;
}
