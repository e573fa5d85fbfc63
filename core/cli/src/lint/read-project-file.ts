import { readFile } from 'node:fs/promises';

/** The `LintHost.readFile` for local projects: text, or undefined when the file is absent. */
export async function readProjectFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw error;
  }
}
