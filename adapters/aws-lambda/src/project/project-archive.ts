import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';

/** Folders that are never part of what a render needs. */
const SKIPPED = new Set(['.git', 'renders', '.seekframe', '.turbo', '.DS_Store']);

/**
 * Packs a project folder into a gzip tarball (paths relative to the folder, symlinks stored as
 * links, never followed). The Lambda side extracts it with tar's path checks, so an entry can
 * never land outside the target folder.
 */
export async function packProject(projectDir: string, file: string): Promise<{ size: number }> {
  const root = path.resolve(projectDir);
  const stream = tar.c(
    {
      gzip: true,
      cwd: root,
      portable: true,
      follow: false,
      filter: (entry) => !entry.includes('node_modules/.cache') && !entry.split('/').some((part) => SKIPPED.has(part)),
    },
    ['.'],
  );
  await pipeline(stream as unknown as NodeJS.ReadableStream, createWriteStream(file));
  return { size: (await stat(file)).size };
}

export async function extractProject(file: string, targetDir: string): Promise<void> {
  await mkdir(targetDir, { recursive: true });
  // strict: refuse malformed archives; tar strips absolute paths and `..` by default.
  await tar.x({ file, cwd: targetDir, strict: true });
}
