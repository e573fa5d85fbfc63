/// <reference path="./s3rver.d.ts" />
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
// s3rver ships no types; the few members used here are typed below.
import S3rverModule from 's3rver';
import type { DistributedStore } from '@seekframe/producer/distributed';
import { createS3ObjectStore } from '../../src/s3-object-store.js';

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
const S3rver = S3rverModule as unknown as new (options: Record<string, unknown>) => S3rverInstance;

export interface LocalS3 {
  endpoint: string;
  bucket: string;
  client: S3Client;
  store: DistributedStore;
  close(): Promise<void>;
}

/**
 * s3rver on 127.0.0.1 with one bucket. `strict: true` puts a small proxy in front that does what
 * real S3 does and s3rver does not:
 * - a PUT with `If-None-Match: *` on an existing key gets 412;
 * - a suffix range (`Range: bytes=-10`, the last 10 bytes) answers the last bytes (s3rver reads
 *   it as bytes 0-10);
 * - a read never sees a write of the same key half done (s3rver writes the file in place, so a
 *   GET during a PUT of a JSON record could read it truncated): requests on one key take turns.
 */
export async function startLocalS3(options: { strict?: boolean; bucket?: string } = {}): Promise<LocalS3> {
  const bucket = options.bucket ?? 'seekframe-renders';
  const directory = await mkdtemp(path.join(os.tmpdir(), 'seekframe-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  let endpoint = `http://127.0.0.1:${address.port}`;
  let proxy: http.Server | undefined;
  if (options.strict) {
    proxy = await startStrictProxy(address.port);
    endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  }
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    endpoint,
    bucket,
    client,
    store: createS3ObjectStore(client, bucket),
    async close() {
      client.destroy();
      if (proxy) await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function startStrictProxy(targetPort: number): Promise<http.Server> {
  const turns = keyTurns();
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, done: () => void): void => {
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', done);
        answer.on('error', done);
        // A client that goes away mid-answer ends its turn too (the pipe stops; 'end' would never come).
        res.on('close', () => (answer.destroy(), done()));
      },
    );
    upstream.on('error', () => (res.destroy(), done()));
    upstream.end(body);
  };
  /** HEAD of the key of `url` (no query: a presigned GET's signature is not a HEAD's): its status and size. */
  const head = (url: string | undefined): Promise<{ status: number; size: number }> =>
    new Promise((resolve) => {
      const probe = http.request({ host: '127.0.0.1', port: targetPort, method: 'HEAD', path: url?.split('?')[0] }, (answer) => {
        answer.resume();
        resolve({ status: answer.statusCode ?? 502, size: Number(answer.headers['content-length'] ?? 0) });
      });
      probe.on('error', () => resolve({ status: 502, size: 0 }));
      probe.end();
    });
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      void turns(req.url?.split('?')[0] ?? '', async (done) => {
        if (req.method === 'PUT' && req.headers['if-none-match'] === '*' && (await head(req.url)).status === 200) {
          res.writeHead(412, { 'content-type': 'application/xml' });
          res.end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>',
          );
          return done();
        }
        const suffix = req.method === 'GET' ? /^bytes=-(\d+)$/.exec(String(req.headers.range ?? '')) : null;
        if (suffix) {
          const { status, size } = await head(req.url);
          // The last N bytes, as S3 answers bytes=-N (all of them when the object is shorter).
          if (status === 200 && size > 0) req.headers.range = `bytes=${Math.max(0, size - Number(suffix[1]))}-${size - 1}`;
        }
        forward(req, res, body, done);
      });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs the requests on one key one at a time, in arrival order: `work` calls `done` when its answer is sent. */
function keyTurns(): (key: string, work: (done: () => void) => Promise<void>) => Promise<void> {
  const tails = new Map<string, Promise<void>>();
  return async (key, work) => {
    const before = tails.get(key) ?? Promise.resolve();
    let finish!: () => void;
    const mine = new Promise<void>((resolve) => (finish = resolve));
    const tail = before.then(() => mine);
    tails.set(key, tail);
    await before;
    let finished = false;
    const done = (): void => {
      if (finished) return;
      finished = true;
      finish();
      if (tails.get(key) === tail) tails.delete(key);
    };
    await work(done).catch(done);
  };
}
