import type { ByteRange, ObjectBody, ObjectInfo, ObjectStore } from '@seekframe/render-api';

/**
 * The render API's object store on an R2 bucket binding (`seekframe-renders`).
 * R2 refuses a stream whose length it cannot know, so streams go through `FixedLengthStream`
 * with the length the caller knows (`putKnownLength`); a plain `put` of a stream of unknown
 * length is read into memory first (small objects only: the renders use `putKnownLength`).
 */
export interface R2ObjectStoreOptions {
  /** Public base URL of the bucket (custom domain or r2.dev); default: the Worker's own `/r/<key>`. */
  publicUrl?: string;
}

/** Where clients download `key`: the bucket's public URL when it has one, else the Worker's `/r/<key>` route. */
export function r2ObjectUrl(key: string, publicUrl?: string): string {
  const path = key.split('/').map(encodeURIComponent).join('/');
  return publicUrl ? `${publicUrl.replace(/\/+$/, '')}/${path}` : `/r/${path}`;
}

/** Streams `body` (exactly `length` bytes) into R2. */
export async function putKnownLength(
  bucket: R2Bucket,
  key: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  contentType: string,
): Promise<void> {
  if (!Number.isSafeInteger(length) || length < 0) throw new Error(`the renderer sent no usable Content-Length for ${key}`);
  const sized = new FixedLengthStream(length);
  const piping = body.pipeTo(sized.writable);
  await Promise.all([bucket.put(key, sized.readable, { httpMetadata: { contentType } }), piping]);
}

function infoOf(object: R2Object): ObjectInfo {
  return {
    key: object.key,
    size: object.size,
    ...(object.httpMetadata?.contentType ? { contentType: object.httpMetadata.contentType } : {}),
    etag: object.httpEtag,
    uploadedAt: object.uploaded.toISOString(),
  };
}

export function createR2ObjectStore(bucket: R2Bucket, options: R2ObjectStoreOptions = {}): ObjectStore {
  return {
    async put(key: string, body: ObjectBody, putOptions: { contentType?: string; ifNoneMatch?: '*' } = {}) {
      const value = body instanceof ReadableStream ? await new Response(body).arrayBuffer() : body;
      const written = await bucket.put(key, value, {
        ...(putOptions.contentType ? { httpMetadata: { contentType: putOptions.contentType } } : {}),
        // Create-only: R2 answers null instead of overwriting.
        ...(putOptions.ifNoneMatch === '*' ? { onlyIf: { etagDoesNotMatch: '*' } } : {}),
      });
      return { created: written !== null };
    },
    async get(key: string, range?: ByteRange) {
      const object = await bucket.get(
        key,
        range
          ? { range: range.end === undefined ? { offset: range.start } : { offset: range.start, length: range.end - range.start + 1 } }
          : {},
      );
      if (!object) return null;
      return { body: object.body, info: infoOf(object) };
    },
    async head(key: string) {
      const object = await bucket.head(key);
      return object ? infoOf(object) : null;
    },
    async delete(key: string) {
      await bucket.delete(key);
    },
    url(key: string) {
      return r2ObjectUrl(key, options.publicUrl);
    },
  };
}
