import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SeekframeError } from '@seekframe/composition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetStore } from './fleet-store.js';
import { queueSettings } from './queue-settings.js';

function failure(fn: () => unknown): SeekframeError {
  try {
    fn();
  } catch (error) {
    return error as SeekframeError;
  }
  throw new Error('expected a failure');
}

describe('queueSettings: the queue from flags and the environment, failing closed', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-queue-settings-'));
    await writeFile(path.join(dir, 'ca.pem'), '-----BEGIN CERTIFICATE-----\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads REDIS_URL and REDIS_PASSWORD; the flag wins over the variable; the display hides the password', () => {
    const fromEnv = queueSettings({ env: { REDIS_URL: 'redis://10.1.2.3:6380/2', REDIS_PASSWORD: 's3cret' } });
    expect(fromEnv.connection).toMatchObject({ host: '10.1.2.3', port: 6380, db: 2, password: 's3cret', maxRetriesPerRequest: null });
    expect(fromEnv.display).toBe('redis://10.1.2.3:6380/2');
    expect(fromEnv.queueName).toBe('seekframe');
    const flag = queueSettings({ url: 'redis://:p%40ss@127.0.0.1:7000', env: { REDIS_URL: 'redis://elsewhere:1' } });
    expect(flag.connection).toMatchObject({ host: '127.0.0.1', port: 7000, password: 'p@ss' });
    expect(flag.display).not.toContain('p@ss');
    expect(flag.loopback).toBe(true);
    expect(flag.warning).toBeUndefined();
  });

  it('rediss:// is TLS, with the CA from REDIS_TLS_CA_FILE; a host name is the server name, an IP is not', () => {
    const tls = queueSettings({
      url: 'rediss://redis.internal:6380',
      env: { REDIS_TLS_CA_FILE: path.join(dir, 'ca.pem'), REDIS_PASSWORD: 'x' },
    });
    expect(tls.connection.tls).toMatchObject({ servername: 'redis.internal', ca: expect.any(Buffer) });
    expect(tls.warning).toBeUndefined();
    expect(queueSettings({ url: 'rediss://127.0.0.1:6380', env: {} }).connection.tls).toEqual({});
  });

  it('refuses what it cannot use, naming the setting and the fix', () => {
    expect(failure(() => queueSettings({ env: {} })).message).toContain('REDIS_URL');
    expect(failure(() => queueSettings({ url: 'http://127.0.0.1:6379', env: {} })).message).toContain('redis:// or rediss://');
    expect(failure(() => queueSettings({ url: 'not a url', env: {} })).code).toBe('invalid-options');
    expect(failure(() => queueSettings({ url: 'redis://127.0.0.1/x', env: {} })).message).toContain('database number');
    expect(failure(() => queueSettings({ url: 'redis://:a@127.0.0.1', env: { REDIS_PASSWORD: 'b' } })).message).toContain('REDIS_PASSWORD');
    expect(
      failure(() => queueSettings({ url: 'rediss://127.0.0.1', env: { REDIS_TLS_CA_FILE: path.join(dir, 'missing.pem') } })).message,
    ).toContain('REDIS_TLS_CA_FILE');
    expect(
      failure(() => queueSettings({ url: 'redis://127.0.0.1', env: { REDIS_TLS_CA_FILE: path.join(dir, 'ca.pem') } })).message,
    ).toContain('rediss://');
    expect(failure(() => queueSettings({ url: 'redis://127.0.0.1', queueName: 'a:b', env: {} })).message).toContain('--queue-name');
  });

  it('warns about a queue off this machine without a password, or in plain text over the network', () => {
    expect(queueSettings({ url: 'redis://redis:6379', env: {} }).warning).toMatch(/no password/);
    expect(queueSettings({ url: 'redis://redis:6379', env: { REDIS_PASSWORD: 'x' } }).warning).toMatch(/unencrypted/);
  });
});

describe('fleetStore', () => {
  it('a folder, or s3://bucket with an S3-compatible endpoint; anything else is refused', async () => {
    expect(fleetStore({ store: 'shared', cwd: '/srv', env: {} }).display).toBe('/srv/shared');
    expect(fleetStore({ env: { SEEKFRAME_FLEET_STORE: 's3://my-renders', S3_ENDPOINT: 'http://127.0.0.1:9000' } }).display).toBe(
      's3://my-renders at http://127.0.0.1:9000',
    );
    expect(failure(() => fleetStore({ env: {} })).message).toContain('--store');
    expect(failure(() => fleetStore({ store: 's3://', env: {} })).message).toContain('s3://<bucket>');
    expect(failure(() => fleetStore({ store: 'gs://bucket', env: {} })).message).toContain('neither a folder nor s3://bucket');
    expect(failure(() => fleetStore({ store: 's3://my-renders', env: { S3_FORCE_PATH_STYLE: 'yes' } })).message).toContain(
      'S3_FORCE_PATH_STYLE',
    );
  });
});
