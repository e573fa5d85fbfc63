import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { FORMAT_EXTENSIONS, type OutputFormat } from '../plan/render-options.js';
import { createLocalFolderStorage, type LocalFolderStorage } from '../storage/local-folder-storage.js';
import type { StorageObjectInfo } from '../storage/storage-port.js';

/** 32 base64url characters = 192 random bits: unguessable, and safe in a file name. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** The formats the server renders (png-sequence, a folder, is refused before a render starts). */
const SERVED_FORMATS = ['mp4', 'mov', 'webm', 'gif'] as const satisfies readonly OutputFormat[];

/** Where one render writes, and how its file becomes a download. */
export interface OutputSlot {
  token: string;
  /** The storage key the finished file gets (`<token><ext>`). */
  key: string;
  /** A temp path inside the store (same file system) the render writes to. */
  file: string;
}

/**
 * Finished renders of the producer server: one user of the storage port, keyed `<token><ext>`
 * in the outputs folder. The render writes a temp file inside the store, which is moved in under
 * its key only once complete (so `find` never sees a part). The token is the only handle a client
 * gets; the folder survives restarts, so links stay valid until someone cleans it.
 */
export class OutputStore {
  readonly storage: LocalFolderStorage;

  constructor(readonly dir: string) {
    this.storage = createLocalFolderStorage({ root: dir });
  }

  prepare(): Promise<void> {
    return this.storage.prepare();
  }

  /** A fresh token and the temp path the render writes to. */
  allocate(format: OutputFormat): OutputSlot {
    const token = randomBytes(24).toString('base64url');
    return { token, key: `${token}${FORMAT_EXTENSIONS[format]}`, file: this.storage.tempPath(FORMAT_EXTENSIONS[format]) };
  }

  /** Moves the finished file in under its key. */
  async publish(slot: OutputSlot): Promise<void> {
    await this.storage.adoptFile(slot.key, slot.file, { ifNoneMatch: '*' });
  }

  /** Removes what a failed or cancelled render may have left at its temp path. */
  async discard(slot: OutputSlot): Promise<void> {
    await rm(slot.file, { force: true, recursive: true });
  }

  /** The finished object for a token, or null (malformed, unknown, or still being written). */
  async find(token: string): Promise<StorageObjectInfo | null> {
    if (!TOKEN.test(token)) return null;
    for (const format of SERVED_FORMATS) {
      const info = await this.storage.head(`${token}${FORMAT_EXTENSIONS[format]}`);
      if (info) return info;
    }
    return null;
  }
}
