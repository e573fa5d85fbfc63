import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { SeekframeError } from '@seekframe/composition';
import { createLocalFolderStorage } from '@seekframe/producer';
import type { DistributedStore } from '@seekframe/producer/distributed';
import { createS3ObjectStore } from '@seekframe/s3-storage';

export interface FleetStoreInput {
  /** `--store`: a folder every machine mounts, or s3://bucket (any S3-compatible service). Default SEEKFRAME_FLEET_STORE. */
  store?: string;
  /** Where to read SEEKFRAME_FLEET_STORE and the S3 settings (AWS_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE, credentials). */
  env?: NodeJS.ProcessEnv;
  /** Relative folders are resolved from here (default the current folder). */
  cwd?: string;
}

export interface FleetStore {
  store: DistributedStore;
  display: string;
}

/**
 * Where a fleet keeps a render's project, plan, audio, segments and output: the same place for
 * the submitter and every worker, named by each of them (a job carries keys, never a location,
 * so nothing in the queue can point a worker at other storage).
 * - a folder (`/mnt/renders`, `./shared`): the producer's local folder storage; every machine
 *   must mount it at the same path (NFS, a shared volume);
 * - `s3://bucket[/prefix]`: the S3 store (@seekframe/s3-storage) with the SDK's own credential
 *   chain; S3_ENDPOINT (or AWS_ENDPOINT_URL_S3) names an S3-compatible service (MinIO, R2,
 *   Ceph), S3_FORCE_PATH_STYLE=true for those that need path-style URLs.
 */
export function fleetStore(input: FleetStoreInput = {}): FleetStore {
  const env = input.env ?? process.env;
  const raw = input.store ?? env.SEEKFRAME_FLEET_STORE;
  const source = input.store !== undefined ? '--store' : 'SEEKFRAME_FLEET_STORE';
  if (raw === undefined || raw.trim() === '')
    throw new SeekframeError(
      'invalid-options',
      'No fleet store given: pass --store <folder every machine mounts> or --store s3://bucket, or set SEEKFRAME_FLEET_STORE. The submitter and every worker must name the same one.',
      { stage: 'config' },
    );
  if (/^s3:\/\//i.test(raw)) {
    const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])\/?$/i.exec(raw.trim());
    if (!match)
      throw new SeekframeError(
        'invalid-options',
        `${source} "${raw}" is not s3://<bucket> (a bucket name of 3-63 letters, digits, "." or "-").`,
        {
          stage: 'config',
        },
      );
    const endpoint = env.S3_ENDPOINT || env.AWS_ENDPOINT_URL_S3 || undefined;
    const forcePathStyle = env.S3_FORCE_PATH_STYLE === undefined ? undefined : env.S3_FORCE_PATH_STYLE === 'true';
    if (env.S3_FORCE_PATH_STYLE !== undefined && !['true', 'false'].includes(env.S3_FORCE_PATH_STYLE))
      throw new SeekframeError('invalid-options', `S3_FORCE_PATH_STYLE must be true or false, not "${env.S3_FORCE_PATH_STYLE}".`, {
        stage: 'config',
      });
    const client = new S3Client({
      region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
      ...(endpoint ? { endpoint } : {}),
      ...(forcePathStyle !== undefined ? { forcePathStyle } : endpoint ? { forcePathStyle: true } : {}),
      // Keys from the given environment; without them the SDK's own chain (profile, instance role, web identity).
      ...(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            credentials: {
              accessKeyId: env.AWS_ACCESS_KEY_ID,
              secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
              ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
            },
          }
        : {}),
    });
    return { store: createS3ObjectStore(client, match[1]!), display: `s3://${match[1]}${endpoint ? ` at ${endpoint}` : ''}` };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
    throw new SeekframeError('invalid-options', `${source} "${raw}" is neither a folder nor s3://bucket.`, { stage: 'config' });
  const root = path.resolve(input.cwd ?? process.cwd(), raw);
  return { store: createLocalFolderStorage({ root }) as DistributedStore, display: root };
}
