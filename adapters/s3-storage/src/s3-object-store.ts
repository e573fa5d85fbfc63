import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { parseStorageKey, SeekframeError } from '@seekframe/composition';
import type { StorageBody, StorageObjectInfo } from '@seekframe/producer/storage-port';
import type { DistributedStore } from '@seekframe/producer/distributed';
import { isShortLivedKey, SHORT_LIVED_TAG } from './short-lived-keys.js';

const SHORT_LIVED_TAGGING = `${SHORT_LIVED_TAG.key}=${SHORT_LIVED_TAG.value}`;

/** Parts of 16 MiB: a 10 GiB output stays under S3's 10,000-part limit. */
const PART_SIZE = 16 * 1024 * 1024;

export interface S3StoreOptions {
  /** Seconds a presigned URL from `url(key)` stays valid. Default 3600. */
  urlExpirySeconds?: number;
}

/**
 * The storage port on one S3 bucket (AWS or any S3-compatible service: give the client an
 * `endpoint` and `forcePathStyle`), for the Lambda handlers, a fleet's workers and a render-api
 * deployment alike. A streamed body goes up through the SDK's Upload (multipart for big files); `url(key)`
 * is a presigned GET. Chunks and progress records (layout.ts) are tagged for the 3-day lifecycle
 * rule by their key, so no caller has to remember to. Keys follow the port's one rule
 * (`parseStorageKey`, as the local folder store): a key one store refuses, none accepts.
 */
export function createS3ObjectStore(client: S3Client, bucket: string, options: S3StoreOptions = {}): DistributedStore {
  const missing = (error: unknown): boolean =>
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
  const wrap = (action: string, key: string, error: unknown): never => {
    if (error instanceof S3ServiceException) {
      const status = error.$metadata.httpStatusCode ?? 0;
      const throttled = error.name === 'SlowDown' || status === 503;
      throw new SeekframeError(
        'storage-failed',
        `S3 ${action} of s3://${bucket}/${key} failed: ${error.name} (${status}) ${error.message}`,
        {
          stage: 'output',
          retryable: status >= 500 || throttled,
          details: { bucket, key, status, throttled },
          cause: error,
        },
      );
    }
    throw error;
  };
  const info = (key: string, size: number, result: { ContentType?: string; ETag?: string; LastModified?: Date }): StorageObjectInfo => ({
    key,
    size,
    ...(result.ContentType ? { contentType: result.ContentType } : {}),
    ...(result.ETag ? { etag: result.ETag } : {}),
    uploadedAt: result.LastModified ?? new Date(0),
  });
  const upload = async (key: string, body: ReadableStream<Uint8Array>, contentType: string): Promise<void> => {
    try {
      await new Upload({
        client,
        partSize: PART_SIZE,
        queueSize: 4,
        params: { Bucket: bucket, Key: key, Body: Readable.fromWeb(body as NodeReadableStream<Uint8Array>), ContentType: contentType },
        ...(isShortLivedKey(key) ? { tags: [{ Key: SHORT_LIVED_TAG.key, Value: SHORT_LIVED_TAG.value }] } : {}),
      }).done();
    } catch (error) {
      wrap('upload', key, error);
    }
  };
  return {
    async put(key, body, putOptions = {}) {
      parseStorageKey(key);
      const contentType = putOptions.contentType ?? 'application/octet-stream';
      // A conditional write must be one PutObject; a stream without a condition may be big: Upload.
      if (body instanceof ReadableStream && !putOptions.ifNoneMatch) {
        await upload(key, body, contentType);
        return { created: true };
      }
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: await bytesOf(body),
            ContentType: contentType,
            ...(putOptions.ifNoneMatch ? { IfNoneMatch: putOptions.ifNoneMatch } : {}),
            ...(isShortLivedKey(key) ? { Tagging: SHORT_LIVED_TAGGING } : {}),
          }),
        );
        return { created: true };
      } catch (error) {
        // S3 conditional writes: 412 when the key exists, 409 when a concurrent conditional write won.
        if (putOptions.ifNoneMatch && error instanceof S3ServiceException && [409, 412].includes(error.$metadata.httpStatusCode ?? 0))
          return { created: false };
        return wrap('PUT', key, error);
      }
    },
    async get(key, range) {
      parseStorageKey(key);
      try {
        const result = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}) }),
        );
        // The whole object's size: after "bytes a-b/" in Content-Range for a ranged get.
        const size = Number(/\/(\d+)$/.exec(result.ContentRange ?? '')?.[1] ?? result.ContentLength ?? 0);
        const body = result.Body ? (result.Body.transformToWebStream() as ReadableStream<Uint8Array>) : new Response('').body!;
        return { body, info: info(key, size, result) };
      } catch (error) {
        if (missing(error)) return null;
        return wrap('GET', key, error);
      }
    },
    async head(key) {
      parseStorageKey(key);
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return info(key, result.ContentLength ?? 0, result);
      } catch (error) {
        if (missing(error)) return null;
        return wrap('HEAD', key, error);
      }
    },
    async delete(key) {
      parseStorageKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        if (!missing(error)) wrap('DELETE', key, error);
      }
    },
    async url(key) {
      parseStorageKey(key);
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: options.urlExpirySeconds ?? 3600 });
    },
    async list(prefix) {
      const objects: { key: string; uploadedAt: Date }[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
          );
          for (const item of page.Contents ?? [])
            if (item.Key) objects.push({ key: item.Key, uploadedAt: item.LastModified ?? new Date(0) });
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (error) {
        wrap('LIST', prefix, error);
      }
      return objects.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

async function bytesOf(body: StorageBody): Promise<string | Uint8Array> {
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(await new Response(body).arrayBuffer());
}
