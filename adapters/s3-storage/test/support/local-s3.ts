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
 * real S3 does and s3rver does not: a PUT with `If-None-Match: *` on an existing key gets 412.
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
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void => {
    const upstream = http.request(
      { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      if (req.method !== 'PUT' || req.headers['if-none-match'] !== '*') return forward(req, res, body);
      const probe = http.request({ host: '127.0.0.1', port: targetPort, method: 'HEAD', path: req.url?.split('?')[0] }, (answer) => {
        answer.resume();
        if (answer.statusCode === 200) {
          res.writeHead(412, { 'content-type': 'application/xml' });
          res.end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>',
          );
        } else forward(req, res, body);
      });
      probe.on('error', () => res.destroy());
      probe.end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
