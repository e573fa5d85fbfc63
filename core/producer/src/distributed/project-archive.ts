import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import { relativePathProblem } from '@seekframe/composition';
import { inside } from '../serve/inside.js';
import { distributedError } from './distributed-error.js';

/** Folders that are never part of what a render needs (`node_modules/.bin`: executables, all links). */
const SKIPPED = new Set(['.git', 'renders', '.seekframe', '.turbo', '.DS_Store']);
const skipped = (relative: string): boolean =>
  relative.includes('node_modules/.cache') ||
  relative.includes('node_modules/.bin') ||
  relative.split('/').some((part) => SKIPPED.has(part));

/** Archive entry types a project may hold: plain files and folders, never links or devices. */
const PLAIN_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

/**
 * A link cache that never remembers: node-tar writes a second path of a hard-linked file (npm and
 * pnpm caches make many) as a `Link` entry, which extraction refuses. Every file travels as bytes.
 */
const NO_HARDLINKS = { get: () => undefined, set() {} } as unknown as Map<`${number}:${number}`, string>;

/**
 * Packs a project folder into a gzip tarball of plain files and folders (paths relative to the
 * folder). A symlink to a file inside the project is packed as that file's bytes; a symlink that
 * leads out of the project or to a folder is refused with `path-outside-project` naming it, so
 * what the Lambda renders is exactly the project's own files.
 */
export async function packProject(projectDir: string, file: string): Promise<{ size: number }> {
  const root = path.resolve(projectDir);
  for (const link of await symlinksIn(root)) {
    const real = await inside(root, link);
    const info = real ? await stat(real).catch(() => null) : null;
    if (!info?.isFile()) {
      throw distributedError(
        'path-outside-project',
        `${link} in the project is a symbolic link to ${real ? 'a folder' : 'something outside the project folder'}; a project rendered on Lambda is sent as plain files. Replace the link with a copy of what it points to.`,
        { stage: 'load', details: { file: link } },
      );
    }
  }
  const stream = tar.c(
    {
      gzip: true,
      cwd: root,
      portable: true,
      follow: true,
      linkCache: NO_HARDLINKS,
      filter: (entry) => !skipped(entry.replace(/^\.\//, '')),
    },
    ['.'],
  );
  await pipeline(stream as unknown as NodeJS.ReadableStream, createWriteStream(file));
  return { size: (await stat(file)).size };
}

/**
 * Unpacks a project archive into `targetDir`, which nothing in it may leave: the archive is read
 * once first, and any entry that is not a plain file or folder (a symlink, a hard link, a device)
 * or whose path is absolute or has a `..` part refuses the whole archive before a byte is
 * written. The unpacking itself lets only plain entries through as well.
 */
export async function extractProject(file: string, targetDir: string): Promise<void> {
  const problems: string[] = [];
  await tar.t({
    file,
    strict: true,
    onReadEntry: (entry) => {
      const problem = entryProblem(entry.path, entry.type);
      if (problem && problems.length < 5) problems.push(problem);
      entry.resume();
    },
  });
  if (problems.length > 0) {
    throw distributedError(
      'path-outside-project',
      `The project archive cannot be unpacked safely: ${problems.join('; ')}. Pack the project with packProject (plain files only).`,
      {
        stage: 'load',
        details: { problems },
      },
    );
  }
  await mkdir(targetDir, { recursive: true });
  try {
    // strict: refuse malformed archives; tar also strips absolute paths and `..` by default.
    await tar.x({
      file,
      cwd: targetDir,
      strict: true,
      filter: (entryPath, entry) => entryProblem(entryPath, 'type' in entry ? entry.type : 'Unsupported') === null,
    });
  } catch (error) {
    await rm(targetDir, { recursive: true, force: true });
    throw error;
  }
}

/** Why an archive entry may not be unpacked, or null. */
function entryProblem(entryPath: string, type: string): string | null {
  const relative = entryPath.replace(/^\.\//, '').replace(/\/$/, '');
  if (!PLAIN_TYPES.has(type))
    return `${JSON.stringify(relative)} is a ${type === 'SymbolicLink' ? 'symbolic link' : type === 'Link' ? 'hard link' : type}`;
  if (relative === '' || relative === '.') return null;
  const problem = relativePathProblem(relative);
  return problem ? `the path ${JSON.stringify(relative)} ${problem}` : null;
}

/** Relative paths of the symlinks in the project (skipped folders left out), POSIX separators. */
async function symlinksIn(root: string): Promise<string[]> {
  const links: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full).split(path.sep).join('/');
      if (skipped(relative)) continue;
      if (entry.isSymbolicLink()) links.push(relative);
      else if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(root);
  return links;
}
