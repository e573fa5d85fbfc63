import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

const SEQUENCE_FILE = /^(frame_\d{6}\.png|audio\.aac)$/;

/**
 * A temp name beside the final output (same folder, so the final rename is atomic and never
 * crosses file systems). Hidden and marked `.partial` so nobody mistakes it for a result.
 */
export function tempPathFor(output: string): string {
  const dir = path.dirname(output);
  const base = path.basename(output);
  const ext = path.extname(base);
  return path.join(dir, `.${base}.${randomBytes(4).toString('hex')}.partial${ext}`);
}

/** Moves a finished temp file or folder into place; returns the output's total size in bytes. */
export async function commitOutput(temp: string, output: string, isFolder: boolean): Promise<number> {
  if (!isFolder) {
    await rename(temp, output);
    return (await stat(output)).size;
  }
  const existing = await stat(output).catch(() => null);
  if (!existing) {
    await rename(temp, output);
  } else {
    // The folder exists (the user may keep other files there): replace our own files only,
    // including frames left over from an earlier, longer render.
    for (const name of await readdir(output)) {
      if (SEQUENCE_FILE.test(name)) await rm(path.join(output, name), { force: true });
    }
    for (const name of await readdir(temp)) await rename(path.join(temp, name), path.join(output, name));
    await rm(temp, { recursive: true, force: true });
  }
  let size = 0;
  for (const name of await readdir(output)) {
    if (SEQUENCE_FILE.test(name)) size += (await stat(path.join(output, name))).size;
  }
  return size;
}

export async function prepareTemp(temp: string, output: string, isFolder: boolean): Promise<void> {
  await mkdir(path.dirname(output), { recursive: true });
  if (isFolder) await mkdir(temp, { recursive: true });
}

export async function removeTemp(temp: string): Promise<void> {
  await rm(temp, { recursive: true, force: true, maxRetries: 3 });
}
