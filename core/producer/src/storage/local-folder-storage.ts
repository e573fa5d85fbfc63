import { randomBytes } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, readdir, realpath, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { SeekframeError } from '@seekframe/composition';
import { inside } from '../serve/inside.js';
import { parseStorageKey } from './storage-key.js';
import type { ByteRange, StorageBody, StorageObjectInfo, StoragePort, StoragePutOptions } from './storage-port.js';

export interface LocalFolderStorageOptions {
  /** The folder objects live in (created on first use). */
  root: string;
  /** When set, `url(key)` is `<publicBaseUrl>/<key>` (a static server or CDN in front of the folder); else null. */
  publicBaseUrl?: string;
}

export interface LocalFolderStorage extends StoragePort {
  readonly root: string;
  /** Creates the folder and removes temp files a killed process left. Every method also does it once. */
  prepare(): Promise<void>;
  /**
   * A fresh path in the folder itself (so on the same file system) that no key can name, for a
   * writer that makes the file on its own (an encoder); hand it over with `adoptFile`.
   */
  tempPath(suffix?: string): string;
  /** Moves a finished file in under `key` (rename; a copy first when it is on another file system). */
  adoptFile(key: string, file: string, options?: StoragePutOptions): Promise<{ created: boolean }>;
  /** The objects whose key starts with `prefix` (temp files and symlinks are not objects). */
  list(prefix: string): Promise<StorageObjectInfo[]>;
}

/** `.<pid>-<hex>.tmp<suffix>`: a dot name, which keys cannot have, and the writer's pid for the sweep. */
const TEMP_NAME = /^\.(\d+)-[0-9a-f]+\.tmp/;

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.gif': 'image/gif',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.aac': 'audio/aac',
  '.json': 'application/json',
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The storage port on a local folder. Puts are atomic (a temp file in the folder, then rename, or
 * link for `ifNoneMatch: '*'`, which fails on an existing key, so create-only has no race).
 * Keys are checked by `parseStorageKey`, and the real path of every folder on the way must stay
 * inside the root: a symlinked folder that leads out is refused, and a symlink as the object
 * itself is never followed. The folder keeps no metadata: `contentType` comes from the key's
 * extension.
 */
export function createLocalFolderStorage(options: LocalFolderStorageOptions): LocalFolderStorage {
  const root = path.resolve(options.root);
  const base = options.publicBaseUrl?.replace(/\/+$/, '');
  let ready: Promise<string> | undefined;
  /** Prepares the folder once (again after a failure); every method waits for it. */
  const realRoot = (): Promise<string> => {
    ready ??= (async () => {
      await mkdir(root, { recursive: true });
      await sweepStaleTemps(root);
      return realpath(root);
    })();
    ready.catch(() => (ready = undefined));
    return ready;
  };
  /** The key's file once the folder is ready (null: no object); see existingTarget and writableTarget. */
  const existing = async (key: string): Promise<string | null> => {
    const segments = parseStorageKey(key);
    await realRoot();
    return existingTarget(root, key, segments);
  };
  const writable = async (key: string): Promise<string> => {
    const segments = parseStorageKey(key);
    await realRoot();
    return writableTarget(root, key, segments);
  };
  const tempPath = (suffix = ''): string => tempPathIn(root, suffix);

  return {
    root,
    prepare: async () => void (await realRoot()),
    tempPath,

    async put(key, body, putOptions = {}) {
      const target = await writable(key);
      const temp = tempPath();
      await writeTemp(temp, key, body);
      return publish(temp, target, putOptions);
    },

    async adoptFile(key, file, putOptions = {}) {
      const target = await writable(key);
      return publish(await moveBeside(root, path.resolve(file), key), target, putOptions);
    },

    async get(key, range) {
      const target = await existing(key);
      if (!target) return null;
      checkRange(range);
      return readObject(key, target, range);
    },

    async head(key) {
      const target = await existing(key);
      return target ? info(key, target) : null;
    },

    async delete(key) {
      const target = await existing(key);
      if (target) await deleteObject(target);
    },

    async list(prefix) {
      await realRoot();
      return listObjects(root, prefix);
    },

    url(key) {
      const segments = parseStorageKey(key);
      return base ? `${base}/${segments.map(encodeURIComponent).join('/')}` : null;
    },
  };
}

// Helpers that need none of the store's state live out here and take the root as a parameter; the
// closure above keeps what touches its lazily prepared folder. See "Stateful objects" in
// docs/contributing/architecture.md.

function tempPathIn(root: string, suffix: string): string {
  return path.join(root, `.${process.pid}-${randomBytes(8).toString('hex')}.tmp${suffix}`);
}

/** The key's file, its folder checked when it exists (null: the folder does not exist, so neither does the object). */
async function existingTarget(root: string, key: string, segments: string[]): Promise<string | null> {
  const target = path.join(root, ...segments);
  if (
    !(await lstat(path.dirname(target)).then(
      () => true,
      () => false,
    ))
  )
    return null;
  if ((await inside(root, path.dirname(target))) === null) throw escapes(key);
  return target;
}

/** The key's file with its folders created, each checked before and after creation. */
async function writableTarget(root: string, key: string, segments: string[]): Promise<string> {
  const target = path.join(root, ...segments);
  // Before: the nearest existing folder of the key must be inside (`inside` resolves it).
  if ((await inside(root, path.dirname(target))) === null) throw escapes(key);
  await mkdir(path.dirname(target), { recursive: true }).catch((error: unknown) => {
    // e.g. a folder of the key is a file already (`a.mp4/b`).
    throw storageFailed(key, 'create the folder of', error);
  });
  if ((await inside(root, path.dirname(target))) === null) throw escapes(key);
  return target;
}

/** Writes `body` to the new file `temp` and syncs it; on failure `temp` is gone. */
async function writeTemp(temp: string, key: string, body: StorageBody): Promise<void> {
  try {
    const handle = await open(temp, 'wx');
    try {
      for await (const chunk of toNodeStream(body)) await handle.write(chunk as Uint8Array);
      // On disk before it gets its name: a crash leaves the old object or the new one.
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw storageFailed(key, 'write', error);
  }
}

/** `source` itself when it is in `root`, else a temp file in `root` it was moved to. */
async function moveBeside(root: string, source: string, key: string): Promise<string> {
  if (path.dirname(source) === root) return source;
  // Another folder may be another file system: copy next to the objects first, then publish.
  const temp = tempPathIn(root, path.extname(source));
  try {
    await rename(source, temp);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw storageFailed(key, 'move', error);
    await copyFile(source, temp).catch(async (copyError: unknown) => {
      await unlink(temp).catch(() => undefined);
      throw storageFailed(key, 'copy', copyError);
    });
    await unlink(source).catch(() => undefined);
  }
  return temp;
}

/** The object at `target` (or the part of it in `range`), null when there is no plain file. */
async function readObject(
  key: string,
  target: string,
  range: ByteRange | undefined,
): Promise<{ body: ReadableStream<Uint8Array>; info: StorageObjectInfo } | null> {
  let handle;
  try {
    // O_NOFOLLOW: a symlink put in place of the object is refused, not followed.
    handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') throw escapes(key);
    throw storageFailed(key, 'read', error);
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    return null;
  }
  const start = range?.start ?? 0;
  const end = Math.min(range?.end ?? stats.size - 1, stats.size - 1);
  if (start > end) {
    // Nothing of the object is in the range (or the object is empty).
    await handle.close();
    return { body: new ReadableStream<Uint8Array>({ start: (c) => c.close() }), info: describe(key, stats) };
  }
  const stream = createReadStream('', { fd: handle, start, end });
  return { body: Readable.toWeb(stream) as ReadableStream<Uint8Array>, info: describe(key, stats) };
}

async function deleteObject(target: string): Promise<void> {
  const stats = await lstat(target).catch(() => null);
  // A symlink is removed itself (its target is never touched); folders are not objects.
  if (stats && !stats.isDirectory()) await rm(target, { force: true });
}

/** The objects under `root` whose key starts with `prefix`; dot names (temp files) and symlinks are not objects. */
async function listObjects(root: string, prefix: string): Promise<StorageObjectInfo[]> {
  const found: StorageObjectInfo[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const key = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (!key.startsWith(prefix) || key.split('/').some((segment) => segment.startsWith('.'))) continue;
    const stats = await lstat(path.join(root, ...key.split('/'))).catch(() => null);
    if (stats?.isFile()) found.push(describe(key, stats));
  }
  return found;
}

function escapes(key: string): SeekframeError {
  return new SeekframeError(
    'invalid-storage-key',
    `Storage key ${JSON.stringify(key)} leads outside the storage folder through a symbolic link; keys name plain files inside it.`,
    {
      stage: 'output',
      details: { key },
    },
  );
}

/** The object at `target` (a plain file), null when there is none; a symbolic link is refused. */
async function info(key: string, target: string): Promise<StorageObjectInfo | null> {
  const stats = await lstat(target).catch(() => null);
  if (stats?.isSymbolicLink()) throw escapes(key);
  if (!stats?.isFile()) return null;
  return describe(key, stats);
}

/** Publishes `temp` under `target`; `temp` is gone afterwards whatever happens. */
async function publish(temp: string, target: string, putOptions: StoragePutOptions): Promise<{ created: boolean }> {
  try {
    if (putOptions.ifNoneMatch === '*') {
      try {
        await link(temp, target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { created: false };
        throw error;
      }
      return { created: true };
    }
    await rename(temp, target);
    return { created: true };
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

function describe(key: string, stats: { size: number; mtime: Date; mtimeMs: number; ino: number }): StorageObjectInfo {
  const contentType = CONTENT_TYPES[path.extname(key).toLowerCase()];
  return {
    key,
    size: stats.size,
    ...(contentType ? { contentType } : {}),
    // Changes whenever the file is replaced (rename gives a new inode) or rewritten.
    etag: `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}-${stats.ino.toString(16)}"`,
    uploadedAt: stats.mtime.toISOString(),
  };
}

function checkRange(range: ByteRange | undefined): void {
  if (!range) return;
  const whole = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (!whole(range.start) || (range.end !== undefined && !whole(range.end))) {
    throw new SeekframeError('invalid-options', `Byte range ${JSON.stringify(range)} is not {start, end?} of whole numbers >= 0.`, {
      stage: 'output',
      details: { range },
    });
  }
}

function toNodeStream(body: StorageBody): Readable {
  if (typeof body === 'string') return Readable.from([Buffer.from(body)]);
  if (body instanceof Uint8Array) return Readable.from([Buffer.from(body.buffer, body.byteOffset, body.byteLength)]);
  if (body instanceof ArrayBuffer) return Readable.from([Buffer.from(body)]);
  return Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
}

function storageFailed(key: string, action: string, error: unknown): SeekframeError {
  const reason = error instanceof Error ? error.message : String(error);
  return new SeekframeError(
    'storage-failed',
    `Could not ${action} storage object ${key} (${reason}); check that the storage folder is writable and has free space.`,
    {
      stage: 'output',
      retryable: true,
      details: { key },
      cause: error,
    },
  );
}

/** Temp files whose writer is gone (a killed server) are removed; those of live processes stay. */
async function sweepStaleTemps(root: string): Promise<void> {
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const pid = Number(TEMP_NAME.exec(name)?.[1]);
    if (!pid || pid === process.pid || isRunning(pid)) continue;
    await rm(path.join(root, name), { force: true }).catch(() => undefined);
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
