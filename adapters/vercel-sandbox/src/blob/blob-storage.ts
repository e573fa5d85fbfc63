import { BlobError, BlobNotFoundError, BlobPreconditionFailedError, del, head, list, put, type BlobAccessType } from '@vercel/blob';
import type { Readable } from 'node:stream';

/**
 * One Blob store as Seekframe uses it, through the real `@vercel/blob` client. Reads go through
 * `head()` + `fetch(head.url)`, never `get(pathname)`: that one builds the storage URL itself and
 * so ignores VERCEL_BLOB_API_URL (the local stand-in) — and a plain fetch is all a reader needs.
 */
export interface BlobStorageOptions {
  /** BLOB_READ_WRITE_TOKEN (mapped explicitly, never read implicitly from the environment). */
  token: string;
  /** How objects are stored: `public` (URLs readable by anyone who has them) or `private`. */
  access: BlobAccessType;
}

export interface BlobObjectInfo {
  url: string;
  size: number;
  contentType: string;
  etag: string;
}

export type BlobBody = string | Uint8Array | Buffer | ReadableStream | Readable;

export class BlobStorage {
  constructor(readonly options: BlobStorageOptions) {}

  /** Writes `pathname` (no random suffix). `ifMatch` makes it a compare-and-swap on the etag. */
  async put(
    pathname: string,
    body: BlobBody,
    opts: { contentType: string; overwrite: boolean; ifMatch?: string; multipart?: boolean },
  ): Promise<(BlobObjectInfo & { created: true }) | { created: false }> {
    try {
      const result = await put(pathname, body as Parameters<typeof put>[1], {
        access: this.options.access,
        token: this.options.token,
        contentType: opts.contentType,
        addRandomSuffix: false,
        allowOverwrite: opts.overwrite,
        ...(opts.ifMatch ? { ifMatch: opts.ifMatch } : {}),
        ...(opts.multipart ? { multipart: true } : {}),
        cacheControlMaxAge: 60,
      });
      const size = typeof body === 'string' ? Buffer.byteLength(body) : body instanceof Uint8Array ? body.byteLength : -1;
      return { created: true, url: result.url, size, contentType: result.contentType, etag: result.etag };
    } catch (error) {
      if (!opts.overwrite && isAlreadyExists(error)) return { created: false };
      throw error;
    }
  }

  async head(pathname: string): Promise<BlobObjectInfo | null> {
    try {
      const info = await head(pathname, { token: this.options.token });
      return { url: info.url, size: info.size, contentType: info.contentType, etag: info.etag };
    } catch (error) {
      if (error instanceof BlobNotFoundError) return null;
      throw error;
    }
  }

  /** The bytes of `pathname` (optionally a byte range), or null when it does not exist. */
  async read(pathname: string, range?: { start: number; end?: number }): Promise<{ response: Response; info: BlobObjectInfo } | null> {
    const info = await this.head(pathname);
    if (!info) return null;
    const headers: Record<string, string> = {};
    // Private blobs need the token; public ones ignore it.
    if (this.options.access === 'private') headers.authorization = `Bearer ${this.options.token}`;
    if (range) headers.range = `bytes=${range.start}-${range.end ?? ''}`;
    const response = await fetch(info.url, { headers, cache: 'no-store' });
    if (response.status === 404) return null;
    if (!response.ok) throw new BlobError(`reading ${pathname} failed with HTTP ${response.status}`);
    return { response, info };
  }

  async readJson<T>(pathname: string): Promise<{ value: T; etag: string } | null> {
    const found = await this.read(pathname);
    if (!found) return null;
    return { value: (await found.response.json()) as T, etag: found.info.etag };
  }

  async list(prefix: string): Promise<string[]> {
    return (await this.listWithDates(prefix)).map((blob) => blob.pathname);
  }

  async listWithDates(prefix: string): Promise<{ pathname: string; uploadedAt: Date }[]> {
    const found: { pathname: string; uploadedAt: Date }[] = [];
    let cursor: string | undefined;
    do {
      const page = await list({ prefix, token: this.options.token, ...(cursor ? { cursor } : {}) });
      found.push(...page.blobs.map((b) => ({ pathname: b.pathname, uploadedAt: b.uploadedAt })));
      cursor = page.hasMore ? page.cursor : undefined;
    } while (cursor);
    return found;
  }

  async delete(pathname: string): Promise<void> {
    const info = await this.head(pathname);
    if (info) await del(info.url, { token: this.options.token });
  }
}

export const isAlreadyExists = (error: unknown): boolean => error instanceof BlobError && /already exists/i.test(error.message);

export const isPreconditionFailed = (error: unknown): boolean => error instanceof BlobPreconditionFailedError;
