import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The files each folder format writes: when its output folder already exists (the user may keep
 * other files there), only these are replaced, including leftovers of an earlier, longer render.
 */
export const FOLDER_FILES = {
  'png-sequence': /^(frame_\d{6}\.png|audio\.aac)$/,
  hls: /^(index\.m3u8|segment_\d{5}\.ts)$/,
} as const;

/** `true` = a PNG sequence (the first folder format), a pattern = that folder format's files, `false` = one file. */
type OutputShape = boolean | RegExp;

function folderPattern(shape: OutputShape): RegExp | undefined {
  if (shape === false) return undefined;
  return shape === true ? FOLDER_FILES['png-sequence'] : shape;
}

/**
 * A temp name beside the final output (same folder, so the final rename is atomic and never
 * crosses file systems). Hidden and marked `.partial` so nobody mistakes it for a result. The
 * writer's pid is in the name, so the next render can tell a leftover of a killed one from a
 * render still running: `.<name>.<pid>-<8 hex>.partial<ext>`.
 */
export function tempPathFor(output: string): string {
  const dir = path.dirname(output);
  const base = path.basename(output);
  const ext = path.extname(base);
  const temp = path.join(dir, `.${base}.${process.pid}-${randomBytes(4).toString('hex')}.partial${ext}`);
  liveTemps.add(temp);
  return temp;
}

/**
 * Temp outputs of this process not yet committed or removed: what removeOwnTempsSync deletes
 * when the process must exit without waiting for its renders to clean up (a second Ctrl-C).
 */
const liveTemps = new Set<string>();

/** Our temp outputs: with the writer's pid (now), or without (older versions). */
const PARTIAL = /^\..+\.(?:(\d+)-)?[0-9a-f]{8}\.partial(?:\.[A-Za-z0-9]+)?$/;
/** Our temp folders in the system temp dir, named with the pid of the process that made them. */
const TEMP_FOLDER = /^seekframe-(?:render|profile|inline)-(\d+)-/;
/** A leftover without a pid is ours to remove only once it is surely abandoned. */
const UNOWNED_AGE_MS = 60 * 60 * 1000;

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what a hard-killed render (SIGKILL, power loss) left: `.partial` outputs in `folder`
 * and seekframe temp folders in the system temp dir. Only names that are provably ours, and only
 * when the process that wrote them is gone (or, for old names without a pid, after an hour).
 * Best effort: returns the paths removed, never throws.
 */
export async function sweepStaleTemps(folder: string, alive: (pid: number) => boolean = processAlive): Promise<string[]> {
  const removed: string[] = [];
  const abandoned = async (file: string, pid: string | undefined): Promise<boolean> => {
    if (pid !== undefined) return Number(pid) !== process.pid && !alive(Number(pid));
    const info = await stat(file).catch(() => null);
    return info !== null && Date.now() - info.mtimeMs > UNOWNED_AGE_MS;
  };
  const sweep = async (dir: string, pattern: RegExp): Promise<void> => {
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      const match = pattern.exec(name);
      if (!match) continue;
      const file = path.join(dir, name);
      if (!(await abandoned(file, match[1]))) continue;
      await rm(file, { recursive: true, force: true }).then(
        () => removed.push(file),
        () => undefined,
      );
    }
  };
  await sweep(folder, PARTIAL);
  await sweep(os.tmpdir(), TEMP_FOLDER);
  return removed;
}

/**
 * Synchronously removes this process's temp outputs (beside their outputs) and its temp folders
 * (`seekframe-{render,profile,inline}-<this pid>-*`): the last thing a process does when it must
 * exit at once. Whatever writes into them must be dead already. Best effort, never throws.
 */
export function removeOwnTempsSync(): string[] {
  const removed: string[] = [];
  const remove = (file: string): void => {
    try {
      rmSync(file, { recursive: true, force: true, maxRetries: 3, retryDelay: 20 });
      removed.push(file);
    } catch {
      // best effort: the next render's sweep removes what is left (the pid is then dead)
    }
  };
  for (const temp of liveTemps) remove(temp);
  liveTemps.clear();
  let names: string[] = [];
  try {
    names = readdirSync(os.tmpdir());
  } catch {
    // no temp folder to look in
  }
  for (const name of names) {
    if (TEMP_FOLDER.exec(name)?.[1] === String(process.pid)) remove(path.join(os.tmpdir(), name));
  }
  return removed;
}

/** A fresh temp folder named for sweepStaleTemps: `seekframe-<kind>-<pid>-XXXXXX`. */
export function tempFolderPrefix(kind: 'render' | 'profile' | 'inline'): string {
  return path.join(os.tmpdir(), `seekframe-${kind}-${process.pid}-`);
}

/** Moves a finished temp file or folder into place; returns the output's total size in bytes. */
export async function commitOutput(temp: string, output: string, shape: OutputShape): Promise<number> {
  liveTemps.delete(temp);
  const ours = folderPattern(shape);
  if (!ours) {
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
      if (ours.test(name)) await rm(path.join(output, name), { force: true });
    }
    for (const name of await readdir(temp)) await rename(path.join(temp, name), path.join(output, name));
    await rm(temp, { recursive: true, force: true });
  }
  let size = 0;
  for (const name of await readdir(output)) {
    if (ours.test(name)) size += (await stat(path.join(output, name))).size;
  }
  return size;
}

export async function prepareTemp(temp: string, output: string, shape: OutputShape): Promise<void> {
  await mkdir(path.dirname(output), { recursive: true });
  if (folderPattern(shape)) await mkdir(temp, { recursive: true });
}

export async function removeTemp(temp: string): Promise<void> {
  await rm(temp, { recursive: true, force: true, maxRetries: 3 });
  liveTemps.delete(temp);
}
