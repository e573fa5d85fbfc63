import path from 'node:path';

/** `file` relative to `cwd` when it is below it, else as given (never `../../tmp/...`). */
export function displayPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
