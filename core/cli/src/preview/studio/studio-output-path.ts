import path from 'node:path';
import { FORMAT_EXTENSIONS, type OutputFormat } from '@seekframe/producer';

/**
 * Where a render from the studio goes: `<project>/renders/<name>-<YYYYMMDD-HHMMSS>[-n].<ext>`,
 * a new file per render so the session history keeps every one (the preview does not watch
 * `renders/`, so writing there never reloads the page). `<name>` is the project folder's name,
 * or the render panel's Name (`renders/<chosen>.<ext>`); a name in use gets `-2`, `-3`...
 */
export function studioOutputPath(root: string, format: OutputFormat, at: Date, taken: (file: string) => boolean, chosen?: string): string {
  const ext = FORMAT_EXTENSIONS[format];
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  // A chosen name is used as given (its extension, if it is the format's, not doubled).
  const base = chosen
    ? ext && chosen.toLowerCase().endsWith(ext)
      ? chosen.slice(0, -ext.length)
      : chosen
    : `${path.basename(root) || 'render'}-${stamp}`;
  for (let n = 1; ; n++) {
    const file = path.join(root, 'renders', `${base}${n === 1 ? '' : `-${n}`}${ext}`);
    if (!taken(file)) return file;
  }
}
