import { randomBytes } from 'node:crypto';
import { mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { FORMAT_EXTENSIONS, type OutputFormat } from '../plan/render-options.js';

/** 32 base64url characters = 192 random bits: unguessable, and safe in a file name. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/**
 * Finished renders in the server's outputs folder, named `<token><ext>`. The token is the only
 * handle a client gets; the folder survives restarts, so links stay valid until someone cleans it.
 */
export class OutputStore {
  constructor(readonly dir: string) {}

  async prepare(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /** A fresh token and the path the render writes to. */
  allocate(format: OutputFormat): { token: string; file: string } {
    const token = randomBytes(24).toString('base64url');
    return { token, file: path.join(this.dir, `${token}${FORMAT_EXTENSIONS[format]}`) };
  }

  /** The finished file for a token, or null (malformed, unknown, or still being written). */
  async find(token: string): Promise<{ file: string; size: number } | null> {
    if (!TOKEN.test(token)) return null;
    const name = (await readdir(this.dir).catch(() => [] as string[])).find((entry) => entry.startsWith(`${token}.`) && path.extname(entry) === entry.slice(token.length));
    if (!name) return null;
    const file = path.join(this.dir, name);
    const info = await stat(file).catch(() => null);
    return info?.isFile() ? { file, size: info.size } : null;
  }
}
