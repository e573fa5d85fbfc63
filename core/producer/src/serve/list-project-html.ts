import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Enough for any project; a folder with more such files than this is not one composition. */
const MAX_FILES = 2000;

/**
 * The files of a project folder whose names match `names` (absolute paths). Installed packages
 * (`node_modules`) and hidden folders are not the project's.
 */
export async function listProjectFiles(root: string, names: RegExp): Promise<string[]> {
  const out: string[] = [];
  const queue = [root];
  while (queue.length > 0 && out.length < MAX_FILES) {
    const dir = queue.shift() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) queue.push(file);
      else if (entry.isFile() && names.test(entry.name)) out.push(file);
    }
  }
  return out.slice(0, MAX_FILES);
}

/** The project's HTML files, for lint's `projectHtmlFiles` (which file mounts which). */
export function listProjectHtmlFiles(root: string): Promise<string[]> {
  return listProjectFiles(root, /\.html?$/i);
}
