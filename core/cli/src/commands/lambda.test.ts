import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { classifyFailure, handleApiInvoke, isApiInvokeEvent, LambdaFailure, type LambdaApiOptions } from '@seekframe/aws-lambda';
import { putJson, renderKeys } from '@seekframe/producer/distributed';
import { getText } from '@seekframe/producer';
import { runCli } from '../../test/run-cli.js';
import { startLocalS3, type LocalS3 } from '../../../../adapters/s3-storage/test/support/local-s3.js';
import { startLambdaInvokeFake } from '../../../../adapters/aws-lambda/test/support/lambda-invoke-fake.js';

/**
 * The CLI against the same stand-ins as the adapter's tests (s3rver, the Lambda Invoke fake).
 * The "workflow" here writes the objects a finished render leaves (its rendering is tested in
 * adapters/aws-lambda); this checks the command: upload, start, progress events, cost, output.
 */
describe('seekframe lambda', () => {
  let s3: LocalS3;
  let fake: Awaited<ReturnType<typeof startLambdaInvokeFake>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let failNext = false;

  beforeAll(async () => {
    s3 = await startLocalS3();
    const service: LambdaApiOptions = {
      store: s3.store,
      chunking: {},
      chunkTimeoutSeconds: 900,
      async startWorkflow(id) {
        const keys = renderKeys(id);
        const at = new Date().toISOString();
        await putJson(s3.store, keys.planProgress, {
          step: 'plan',
          done: true,
          planHash: 'h',
          totalFrames: 20,
          chunks: 2,
          concurrency: 2,
          finishedAt: at,
          memoryMb: 2048,
          durationMs: 900,
        });
        for (const chunk of [0, 1]) {
          await putJson(s3.store, keys.chunkProgress(chunk), {
            step: 'chunk',
            chunk,
            attempt: 0,
            frames: 10,
            framesRendered: 10,
            done: true,
            startedAt: at,
            updatedAt: at,
            memoryMb: 3008,
            durationMs: 2000,
          });
        }
        if (failNext) {
          await putJson(s3.store, keys.status, {
            status: 'failed',
            finishedAt: at,
            error: { code: 'version-mismatch', message: 'Chromium 1 (plan: 2)', retryable: false },
          });
          return;
        }
        await s3.store.put(keys.output, 'mp4 bytes', { contentType: 'video/mp4' });
        await putJson(s3.store, keys.assembleProgress, {
          step: 'assemble',
          done: true,
          startedAt: at,
          updatedAt: at,
          memoryMb: 3008,
          durationMs: 700,
        });
        await putJson(s3.store, keys.status, { status: 'completed', finishedAt: at, output: { key: keys.output, size: 9, frames: 20 } });
      },
    };
    fake = await startLambdaInvokeFake({
      'seekframe-api': async (event) => {
        if (!isApiInvokeEvent(event)) throw new Error('not an API event');
        try {
          return await handleApiInvoke(service, event);
        } catch (error) {
          throw new LambdaFailure(classifyFailure(error));
        }
      },
    });
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-lambda-'));
    await writeFile(
      path.join(dir, 'index.html'),
      '<html data-composition-id="c" data-width="160" data-height="90" data-duration="2"></html>',
    );
    const lambdaEndpoint = (fake.client.config.endpoint ? await fake.client.config.endpoint() : null) as {
      hostname: string;
      port?: number;
    } | null;
    env = {
      PATH: process.env.PATH,
      HOME: os.homedir(),
      SEEKFRAME_LAMBDA_FUNCTION: 'seekframe-api',
      SEEKFRAME_LAMBDA_BUCKET: s3.bucket,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_LAMBDA: `http://${lambdaEndpoint!.hostname}:${lambdaEndpoint!.port}`,
    };
  });
  afterAll(async () => {
    await fake?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('render --wait --json prints started, stage/progress events, the cost estimate and complete', async () => {
    failNext = false;
    const result = await runCli(
      ['lambda', 'render', '.', '--wait', '--json', '--interval-ms', '50', '--variables', '{"title":"Hi"}', '--fps', '10'],
      { cwd: dir, env },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ type: 'started' });
    const id = lines[0]!.renderId as string;
    expect(lines.filter((l) => l.type === 'stage').map((l) => l.stage)).toEqual(['finish']);
    expect(lines.find((l) => l.type === 'progress')).toMatchObject({ framesRendered: 20, totalFrames: 20, percent: 100 });
    const cost = lines.find((l) => l.type === 'cost') as { cost: { estimated: boolean; invocations: number; display: string } };
    expect(cost.cost).toMatchObject({ estimated: true, invocations: 4 });
    expect(cost.cost.display).toMatch(/estimate/);
    const complete = lines.at(-1) as { type: string; renderId: string; output: string; size: number };
    expect(complete).toMatchObject({ type: 'complete', renderId: id, size: 9 });
    expect(await (await fetch(complete.output)).text()).toBe('mp4 bytes');
    expect(JSON.parse((await getText(s3.store, renderKeys(id).request))!).request).toEqual({
      variables: { title: 'Hi' },
      format: 'mp4',
      fps: 10,
    });

    const progress = await runCli(['lambda', 'progress', id], { cwd: dir, env });
    expect(progress.code).toBe(0);
    expect(progress.stdout).toContain(`${id}: completed (done, 100%, 20/20 frames, chunks 2/2)`);
    expect(progress.stdout).toMatch(/Cost: ~\$\d+\.\d+ \(estimate\)/);
  });

  it('render --wait without --json prints plain progress lines, the cost estimate and the output URL', async () => {
    failNext = false;
    const result = await runCli(['lambda', 'render', '.', '--wait', '--interval-ms', '50'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Started Lambda render [a-z0-9-]+\.\n$/);
    expect(result.stdout).toContain('finish...');
    expect(result.stdout).toMatch(/: completed \(done, 100%, 20\/20 frames, chunks 2\/2\)/);
    expect(result.stdout).toMatch(/Cost: ~\$\d+\.\d+ \(estimate\) — [\d.]+ GB-s, 4 invocations, \d+ state transitions; S3 not included/);
    expect(result.stdout).toMatch(/Output \(9 bytes\): http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('a failed render exits 1 with its typed error; missing settings are a usage error', async () => {
    failNext = true;
    const failed = await runCli(['lambda', 'render', '.', '--wait', '--json', '--interval-ms', '50'], { cwd: dir, env });
    expect(failed.code).toBe(1);
    const last = JSON.parse(failed.stdout.trim().split('\n').at(-1)!) as { type: string; error: { code: string } };
    expect(last).toMatchObject({ type: 'error', error: { code: 'version-mismatch' } });
    const noTarget = await runCli(['lambda', 'progress', 'abcdefgh-1'], { cwd: dir, env: { PATH: process.env.PATH } });
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toContain('SEEKFRAME_LAMBDA_FUNCTION');
  });
});
