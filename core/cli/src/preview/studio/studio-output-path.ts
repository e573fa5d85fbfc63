import path from 'node:path';
import { FORMAT_EXTENSIONS, type OutputFormat } from '@seekframe/producer';

/**
 * Where a render from the studio goes: `<project>/renders/<name>-<YYYYMMDD-HHMMSS>[-n].<ext>`,
 * a new file per render so the session history keeps every one (the preview does not watch
 * `renders/`, so writing there never reloads the page). `<name>` is the project folder's name.
 */
export function studioOutputPath(root: string, format: OutputFormat, at: Date, taken: (file: string) => boolean): string {
  const name = path.basename(root) || 'render';
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  for (let n = 1; ; n++) {
    const file = path.join(root, 'renders', `${name}-${stamp}${n === 1 ? '' : `-${n}`}${FORMAT_EXTENSIONS[format]}`);
    if (!taken(file)) return file;
  }
}
