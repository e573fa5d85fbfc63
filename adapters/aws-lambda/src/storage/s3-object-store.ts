import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { lambdaError } from '../errors.js';
import type { ObjectStore } from './object-store.js';
import { SHORT_LIVED_TAG } from './layout.js';

const SHORT_LIVED_TAGGING = `${SHORT_LIVED_TAG.key}=${SHORT_LIVED_TAG.value}`;

/** Parts of 16 MiB: a 10 GiB output stays under S3's 10,000-part limit. */
const PART_SIZE = 16 * 1024 * 1024;

export function createS3ObjectStore(client: S3Client, bucket: string): ObjectStore {
  const missing = (error: unknown): boolean =>
    error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
  const wrap = (action: string, key: string, error: unknown): never => {
    if (error instanceof S3ServiceException) {
      const status = error.$metadata.httpStatusCode ?? 0;
      const throttled = error.name === 'SlowDown' || status === 503;
      throw lambdaError('storage-failed', `S3 ${action} of s3://${bucket}/${key} failed: ${error.name} (${status}) ${error.message}`, {
        stage: 'output',
        retryable: status >= 500 || throttled,
        details: { bucket, key, status, throttled },
        cause: error,
      });
    }
    throw error;
  };
  return {
    async put(key, body, options = {}) {
      try {
        await client.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: body,
            ContentType: options.contentType ?? 'application/octet-stream',
            ...(options.ifNoneMatch ? { IfNoneMatch: options.ifNoneMatch } : {}),
            ...(options.shortLived ? { Tagging: SHORT_LIVED_TAGGING } : {}),
          }),
        );
        return { created: true };
      } catch (error) {
        // S3 conditional writes: 412 when the key exists, 409 when a concurrent conditional write won.
        if (options.ifNoneMatch && error instanceof S3ServiceException && [409, 412].includes(error.$metadata.httpStatusCode ?? 0)) return { created: false };
        return wrap('PUT', key, error);
      }
    },
    async putFile(key, file, contentType, options = {}) {
      const { size } = await stat(file);
      try {
        const upload = new Upload({
          client,
          partSize: PART_SIZE,
          queueSize: 4,
          params: { Bucket: bucket, Key: key, Body: createReadStream(file), ContentType: contentType },
          ...(options.shortLived ? { tags: [{ Key: SHORT_LIVED_TAG.key, Value: SHORT_LIVED_TAG.value }] } : {}),
        });
        await upload.done();
      } catch (error) {
        wrap('upload', key, error);
      }
      return { size };
    },
    async getText(key) {
      const stream = await this.getStream(key);
      if (!stream) return null;
      const parts: Buffer[] = [];
      for await (const part of stream) parts.push(Buffer.from(part as Uint8Array));
      return Buffer.concat(parts).toString('utf8');
    },
    async getFile(key, file) {
      const stream = await this.getStream(key);
      if (!stream) return false;
      await pipeline(stream, createWriteStream(file));
      return true;
    },
    async getStream(key) {
      try {
        const result = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const body = result.Body;
        if (!body) return Readable.from([]);
        return body instanceof Readable ? body : Readable.fromWeb((body as { transformToWebStream(): ReadableStream }).transformToWebStream() as never);
      } catch (error) {
        if (missing(error)) return null;
        return wrap('GET', key, error);
      }
    },
    async head(key) {
      try {
        const result = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: result.ContentLength ?? 0 };
      } catch (error) {
        if (missing(error)) return null;
        return wrap('HEAD', key, error);
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
          for (const item of page.Contents ?? []) if (item.Key) keys.push(item.Key);
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (error) {
        wrap('LIST', prefix, error);
      }
      return keys.sort();
    },
    presign(key, expiresInSeconds) {
      return getSignedUrl(client, new GetObjectCommand({ Bucket: bucket, Key: key }), { expiresIn: expiresInSeconds });
    },
  };
}
