import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { S3Client } from '@aws-sdk/client-s3';
import type { SeekframeErrorData } from '@seekframe/composition';
import { SeekframeError } from '@seekframe/composition';
import { putFile } from '@seekframe/producer';
import { parseRenderBody } from '@seekframe/render-api';
import type { StartedRender } from '../api/lambda-render-api.js';
import type { DistributedProgress } from '../progress/aggregate-progress.js';
import type { RenderRequestBody } from '../progress/progress-records.js';
import { newRenderId, packProject, renderKeys } from '@seekframe/producer/distributed';
import { createS3ObjectStore } from '@seekframe/s3-storage';
import { invokeApi } from './invoke-api.js';

export interface LambdaTarget {
  /** The API function's name or ARN (an output of `sst deploy`). */
  functionName: string;
  /** The render bucket (an output of `sst deploy`). */
  bucket: string;
  region?: string;
  /** Pre-built clients (tests point them at local stand-ins). */
  lambda?: LambdaClient;
  s3?: S3Client;
}

/**
 * Starts a distributed render of a local project: packs the folder, uploads it to
 * `renders/<id>/project.tar.gz`, then asks the API function to start the workflow.
 */
export async function renderOnLambda(
  target: LambdaTarget,
  input: { projectDir: string; request?: RenderRequestBody; id?: string },
): Promise<StartedRender> {
  const request = input.request ?? {};
  // The API function checks it again; refused here, before the upload, a bad body costs nothing.
  parseRenderBody(request);
  const id = input.id ?? newRenderId();
  const s3 = target.s3 ?? new S3Client(target.region ? { region: target.region } : {});
  const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-'));
  try {
    const archive = path.join(dir, 'project.tar.gz');
    await packProject(input.projectDir, archive);
    await putFile(createS3ObjectStore(s3, target.bucket), renderKeys(id).project, archive, { contentType: 'application/gzip' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return invokeApi<StartedRender>(lambdaClient(target), target.functionName, { type: 'start', id, request });
}

export function getRenderProgress(target: LambdaTarget, renderId: string): Promise<DistributedProgress> {
  return invokeApi<DistributedProgress>(lambdaClient(target), target.functionName, { type: 'progress', id: renderId });
}

/** Polls until the render completed (resolves) or failed (rejects with its SeekframeError). */
export async function waitForRender(
  target: LambdaTarget,
  renderId: string,
  options: { intervalMs?: number; onProgress?: (progress: DistributedProgress) => void; signal?: AbortSignal } = {},
): Promise<DistributedProgress> {
  for (;;) {
    const progress = await getRenderProgress(target, renderId);
    options.onProgress?.(progress);
    if (progress.status === 'completed') return progress;
    if (progress.status === 'failed' || progress.status === 'cancelled') {
      const error: SeekframeErrorData = progress.error ?? {
        code: 'render-failed',
        message: `Render ${renderId} ${progress.status}.`,
        retryable: false,
      };
      throw SeekframeError.fromJSON(error);
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, options.intervalMs ?? 2000);
      options.signal?.addEventListener('abort', () => (clearTimeout(timer), reject(options.signal?.reason)), { once: true });
    });
  }
}

const clients = new WeakMap<LambdaTarget, LambdaClient>();
function lambdaClient(target: LambdaTarget): LambdaClient {
  if (target.lambda) return target.lambda;
  let client = clients.get(target);
  if (!client) {
    client = new LambdaClient(target.region ? { region: target.region } : {});
    clients.set(target, client);
  }
  return client;
}
