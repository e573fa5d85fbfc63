import { readFile } from 'node:fs/promises';

/**
 * The `readFile` that `lintProject` takes, for projects on disk: the text, or undefined when the
 * file is absent (lint reports a missing file as a finding, not as a crash).
 */
export async function readProjectFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}
