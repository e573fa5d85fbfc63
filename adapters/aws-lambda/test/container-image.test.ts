import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerTestsEnabled, engineEnv, ensureImage, podman } from '../../../core/cli/test/container-images.js';
import type { StoredPlan } from '@seekframe/producer/distributed';
import { runLocalRender } from '../src/local/run-local-render.js';
import type { StepInvokers } from '../src/orchestration/local-pipeline.js';
import { producerCore } from '@seekframe/producer/distributed';
import { systemRuntime } from '@seekframe/producer/distributed';
import { renderKeys } from '@seekframe/producer/distributed';
import { getFile } from '@seekframe/producer';
import { getJson } from '@seekframe/producer/distributed';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';
import { startRuntimeApi, type RuntimeApiStandIn } from './support/runtime-api-stand-in.js';
import { bestLag, audioSamples, frameIndexes, seamProject, streamTypes, tempDir, videoPackets } from './support/media.js';

/**
 * The Lambda functions as deployed: the image infra/lambda/Dockerfile builds FROM the render image
 * (Debian's chromium-headless-shell and ffmpeg 5.1, not @sparticuz/chromium and not the 2018 ffmpeg
 * of @ffmpeg-installer), run under podman the way Lambda runs it: one container per function,
 * its Runtime API loop talking to a stand-in of Lambda's Runtime API on this machine's loopback,
 * a read-only root file system with a /tmp, a uid that is not root, and S3 on s3rver, reached over
 * loopback from the container (host network, 127.0.0.1 only). The pipeline that drives them is
 * the local runner with the state machine's retry table: plan -> 3 chunks -> assemble.
 * What only AWS runs (Lambda's own runtime service, IAM, Step Functions) is not here.
 */
const enabled = containerTestsEnabled('Lambda image tests');

interface FunctionContainer {
  api: RuntimeApiStandIn;
  name: string;
  logs(): string;
  stop(): Promise<void>;
}

describe.skipIf(!enabled)('Lambda handlers inside the Lambda container image (podman)', () => {
  let image: string;
  let s3: LocalS3;
  let work: string;
  let sound: Awaited<ReturnType<typeof seamProject>>;
  const containers: FunctionContainer[] = [];

  /** Starts `image <handler>` as Lambda would, serving invocations from its own Runtime API stand-in. */
  async function startFunction(handler: string): Promise<FunctionContainer> {
    const api = await startRuntimeApi();
    const name = `seekframe-lambda-test-${handler.toLowerCase()}-${process.pid}`;
    const env = {
      AWS_LAMBDA_RUNTIME_API: api.address,
      AWS_LAMBDA_FUNCTION_NAME: `seekframe-test-${handler}`,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008',
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      SEEKFRAME_BUCKET: s3.bucket,
      SEEKFRAME_CACHE_DIR: '/tmp/seekframe-cache',
      SEEKFRAME_CHUNK_TIMEOUT_SECONDS: '900',
    };
    const args = [
      'run',
      '--rm',
      '--name',
      name,
      // Lambda: a read-only image with a writable /tmp, a uid of its own; here its network is the
      // host's, and the container is only told about 127.0.0.1 (the Runtime API and s3rver).
      '--read-only',
      '--tmpfs',
      '/tmp:rw,size=2g,mode=1777',
      '--user',
      '993:990',
      '--network',
      'host',
      ...Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
      image,
      handler,
    ];
    const child = spawn('/usr/bin/podman', args, { env: engineEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let logs = '';
    child.stdout.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const container: FunctionContainer = {
      api,
      name,
      logs: () => logs,
      async stop() {
        await podman(['rm', '--force', '--time', '2', name]).catch(() => undefined);
        await exited;
        await api.close();
      },
    };
    containers.push(container);
    return container;
  }

  beforeAll(async () => {
    ({ image } = await ensureImage('lambda'));
    s3 = await startLocalS3();
    work = await tempDir('seekframe-lambda-image-');
    sound = await seamProject({ seconds: 2, fps: 10 });
  }, 30 * 60_000);
  afterAll(async () => {
    await Promise.all(containers.map((c) => c.stop()));
    await sound?.cleanup();
    await s3?.close();
    if (work) await rm(work, { recursive: true, force: true });
  }, 60_000);

  it(
    "plan, 3 render-chunk invocations and assemble run in the image: frame-exact video, the sound mixed once, with the image's Chromium and current ffmpeg",
    async () => {
      const fns = Object.fromEntries(
        await Promise.all(['plan', 'renderChunk', 'assemble', 'fail'].map(async (h) => [h, await startFunction(h)] as const)),
      );
      const through = (handler: string) => (event: unknown) => fns[handler]!.api.invoke(event);
      const invokers = (): StepInvokers => ({
        plan: through('plan') as StepInvokers['plan'],
        renderChunk: through('renderChunk') as StepInvokers['renderChunk'],
        assemble: through('assemble') as StepInvokers['assemble'],
        fail: through('fail'),
      });
      const result = await runLocalRender({
        store: s3.store,
        core: producerCore,
        runtime: systemRuntime(),
        workRoot: path.join(work, 'host-scratch'),
        projectDir: sound.dir,
        request: { quality: 'draft' },
        chunking: { chunkCount: 3 },
        maxConcurrency: 1,
        invokers,
      }).catch((error: unknown) => {
        throw new Error(
          `${error instanceof Error ? error.message : String(error)}\n--- container logs ---\n${Object.values(fns)
            .map((f) => `${f.name}:\n${f.logs()}`)
            .join('\n')}`,
        );
      });

      // The plan was made inside the image: its Chromium and its ffmpeg (5.1 from Debian, not 4.1).
      const stored = (await getJson<StoredPlan>(s3.store, renderKeys(result.renderId).plan))!;
      const labels = JSON.parse(await podman(['image', 'inspect', '--format', '{{json .Config.Labels}}', image])) as Record<string, string>;
      expect(labels['seekframe.version.chromium-headless-shell']).toContain(stored.plan.versions.chromium);
      expect(stored.plan.versions.ffmpeg).toMatch(/^5\.1\./);
      expect(labels['seekframe.version.ffmpeg']).toContain(stored.plan.versions.ffmpeg);
      expect(stored.plan.versions.fonts).toMatchObject({ 'fonts-noto-core': labels['seekframe.version.fonts-noto-core'] });
      expect(stored.chunks).toHaveLength(3);

      const file = path.join(work, 'out.mp4');
      await getFile(s3.store, result.output.key, file);
      expect(await streamTypes(file)).toEqual(['video', 'audio']);
      expect(await frameIndexes(file)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect((await videoPackets(file)).flatMap((p, i) => (p.key ? [i] : []))).toEqual(stored.chunks.map((c) => c.start));
      // The chirp starts where the composition puts it (0.37 s): the sound was mixed once, in the plan step.
      const source = await audioSamples(path.join(sound.dir, 'tone.wav'));
      const rendered = await audioSamples(file);
      expect(Math.abs(bestLag(source, rendered.subarray(Math.round(0.37 * 48000))))).toBeLessThanOrEqual(2);
      expect(result.progress).toMatchObject({ status: 'completed', framesRendered: 20, totalFrames: 20 });
      console.log(
        `[images] Lambda image render: ${os.EOL}${Object.values(fns)
          .map((f) => `  ${f.name}`)
          .join(os.EOL)}`,
      );
    },
    15 * 60_000,
  );
});
