import path from 'node:path';
import { getMimeType } from 'hono/utils/mime';

/** The Content-Type a file is served with, from its extension. */
export function contentTypeOf(file: string): string {
  return getMimeType(path.basename(file)) ?? 'application/octet-stream';
}
