import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Enough for any project; a folder with more HTML files than this is not one composition. */
const MAX_FILES = 2000;

/**
 * The HTML files of a project folder (absolute paths), for lint's `projectHtmlFiles`: which file
 * mounts which. Installed packages (`node_modules`) and hidden folders are not the project's.
 */
export async function listProjectHtmlFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const queue = [root];
  while (queue.length > 0 && out.length < MAX_FILES) {
    const dir = queue.shift() as string;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) queue.push(file);
      else if (entry.isFile() && /\.html?$/i.test(entry.name)) out.push(file);
    }
  }
  return out.slice(0, MAX_FILES);
}
