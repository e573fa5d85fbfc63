import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';

/** True when `file` exists, is a regular file and is executable by this process. */
export async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks a bare command name up on PATH, like `which`. Returns null when absent. */
export async function findOnPath(name: string, envPath = process.env.PATH ?? ''): Promise<string | null> {
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}
