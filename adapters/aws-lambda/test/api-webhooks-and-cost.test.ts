import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { verifyWebhook } from '@seekframe/producer/webhooks';
import { createLambdaApiApp, type LambdaApiOptions } from '../src/api/lambda-render-api.js';
import { pendingWork } from '../src/api/pending-work.js';
import { readRenderProgress } from '../src/api/render-progress.js';
import { failHandler } from '../src/handlers/fail-handler.js';
import { pricingForRegion } from '../src/progress/cost.js';
import { renderKeys } from '@seekframe/producer/distributed';
import { putJson } from '@seekframe/producer/distributed';
import { completedData, sendRenderEvent } from '../src/webhooks/render-webhook-events.js';
import { webhooksFromEnv } from '../src/webhooks/webhooks-from-env.js';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';

const SECRET = 'lambda-webhook-secret';

/**
 * The Lambda API's webhooks and cost estimate against its local stand-in (s3rver with S3's
 * If-None-Match, the Hono app in process), with a real receiver on 127.0.0.1: refusals at POST,
 * an event sent by a step handler (the fail step) with retries, its attempts in GET
 * /api/render/:id, and the per-function cost at the region's prices.
 */
describe('Lambda API: signed webhooks and the cost estimate', () => {
  let s3: LocalS3;
  let dir: string;
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: { body: string; headers: IncomingHttpHeaders; answered: number }[] = [];

  beforeAll(async () => {
    s3 = await startLocalS3({ strict: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-webhooks-'));
    await writeFile(
      path.join(dir, 'index.html'),
      `<html data-composition-id="c" data-width="16" data-height="16" data-duration="1"></html>`,
    );
    // Answers 500 to the first two deliveries of each event id, then 200.
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        const id = req.headers['seekframe-webhook-id'];
        const answered = deliveries.filter((d) => d.headers['seekframe-webhook-id'] === id).length < 2 ? 500 : 200;
        deliveries.push({ body, headers: req.headers, answered });
        res.writeHead(answered).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const work = pendingWork();
  const service = (env: Record<string, string>): LambdaApiOptions => ({
    store: s3.store,
    startWorkflow: async () => undefined,
    chunking: {},
    chunkTimeoutSeconds: 900,
    defaultProjectDir: dir,
    webhooks: webhooksFromEnv(env).gate,
    pricing: pricingForRegion('eu-west-1'),
  });
  const app = (svc: LambdaApiOptions) => createLambdaApiApp({ ...svc, compositionDir: dir, waitUntil: work.waitUntil });
  const post = async (svc: LambdaApiOptions, body: unknown) => {
    const answer = await app(svc).request('/api/render', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    await work.settle();
    return answer;
  };
  const errorOf = async (response: Response) => ({
    status: response.status,
    ...((await response.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error,
  });

  it('refuses at POST: no secret (naming RENDER_WEBHOOK_SECRET), a loopback URL without the opt-in, private ranges with it', async () => {
    const none = await errorOf(await post(service({}), { webhook: { url: receiverUrl } }));
    expect(none).toMatchObject({ status: 400, code: 'webhook-secret-missing' });
    expect(none.message).toMatch(/RENDER_WEBHOOK_SECRET/);
    const loopback = await errorOf(await post(service({ RENDER_WEBHOOK_SECRET: SECRET }), { webhook: { url: receiverUrl } }));
    expect(loopback).toMatchObject({ status: 400, code: 'invalid-options', details: { field: 'webhook.url' } });
    // Private addresses that stay on this machine (0.0.0.0 at the receiver's port, and [::]); the
    // ranges one by one are private-address.test.ts's, without traffic.
    for (const url of [receiverUrl.replace('127.0.0.1', '0.0.0.0'), receiverUrl.replace('127.0.0.1', '[::]')]) {
      expect(
        await errorOf(await post(service({ RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' }), { webhook: { url } })),
        url,
      ).toMatchObject({ status: 400, code: 'invalid-options' });
    }
    expect(await errorOf(await post(service({ RENDER_WEBHOOK_SECRET: SECRET }), { webhook: { url: 'ftp://x/y' } }))).toMatchObject({
      status: 400,
      code: 'invalid-body',
    });
    expect(deliveries).toEqual([]);
  });

  it('the fail step sends render.failed once (a receiver failing twice gets it three times) and the attempts show in the status', async () => {
    const svc = service({ RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' });
    const started = await post(svc, { webhook: { url: receiverUrl, customData: { job: 7 } } });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    const webhooks = {
      ...webhooksFromEnv({ RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks!,
      retryDelaysMs: [5, 5, 5, 5],
    };
    const failure = {
      renderId: id,
      error: {
        Error: 'Seekframe.Permanent',
        Cause: JSON.stringify({ errorMessage: JSON.stringify({ code: 'lint-failed', message: 'bad composition', retryable: false }) }),
      },
    };
    await failHandler({ store: s3.store, webhooks }, failure);
    // A second run of the step (Step Functions retried it) does not send the event again.
    await failHandler({ store: s3.store, webhooks }, failure);

    const mine = deliveries.filter((d) => JSON.parse(d.body).renderId === id);
    expect(mine.map((d) => d.answered)).toEqual([500, 500, 200]);
    const event = await verifyWebhook({ body: mine[2]!.body, headers: mine[2]!.headers, secret: SECRET });
    expect(event).toMatchObject({
      type: 'render.failed',
      renderId: id,
      customData: { job: 7 },
      data: { error: { code: expect.any(String), message: expect.any(String), fix: expect.any(String) } },
    });

    // GET answers a failed render with its error; its progress (the typed client's view) has the attempts.
    const status = await app(svc).request(`/api/render/${id}`, { headers: { accept: 'application/json' } });
    expect(status.status).toBe(400);
    const progress = await readRenderProgress(svc, id);
    expect(progress.webhook?.url).toBe(receiverUrl);
    expect(progress.webhook?.attempts.map((a) => [a.event, a.attempt, a.status, a.ok])).toEqual([
      ['render.failed', 1, 500, false],
      ['render.failed', 2, 500, false],
      ['render.failed', 3, 200, true],
    ]);
  });

  it('render.completed carries a presigned URL that downloads the output, its size, duration and frames; GET shows the attempts and the cost per function', async () => {
    const svc = service({ RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' });
    const { id } = (await (await post(svc, { webhook: { url: receiverUrl } })).json()) as { id: string };
    const keys = renderKeys(id);
    const t = Date.now();
    const iso = (ms: number) => new Date(t + ms).toISOString();
    // What the step functions record as they run (memory x duration of each invocation).
    await putJson(s3.store, keys.planProgress, {
      step: 'plan',
      done: true,
      planHash: 'p',
      totalFrames: 20,
      chunks: 2,
      concurrency: 2,
      finishedAt: iso(1000),
      memoryMb: 2048,
      durationMs: 3000,
    });
    for (const chunk of [0, 1]) {
      await putJson(s3.store, keys.chunkProgress(chunk), {
        step: 'chunk',
        chunk,
        attempt: 0,
        frames: 10,
        framesRendered: 10,
        done: true,
        startedAt: iso(1000),
        updatedAt: iso(11_000),
        memoryMb: 3008,
        durationMs: 10_000,
      });
    }
    await putJson(s3.store, keys.assembleProgress, {
      step: 'assemble',
      done: true,
      startedAt: iso(11_000),
      updatedAt: iso(13_000),
      memoryMb: 1024,
      durationMs: 2000,
    });
    await s3.store.put(keys.output, 'MP4 bytes', { contentType: 'video/mp4' });
    const output = { key: keys.output, size: 9, frames: 20 };
    await putJson(s3.store, keys.status, { status: 'completed', finishedAt: iso(13_000), output });
    // A client polls between the status record and the deliveries: completed, no attempt yet.
    const early = await app(svc).request(`/api/render/${id}`, { headers: { accept: 'application/json' } });
    expect(early.status).toBe(200);
    expect(((await early.json()) as { webhook: { attempts: unknown[] } }).webhook.attempts).toEqual([]);
    const webhooks = {
      ...webhooksFromEnv({ RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks!,
      retryDelaysMs: [5, 5, 5, 5],
    };
    await sendRenderEvent({ store: s3.store, webhooks }, id, 'render.completed', () =>
      completedData({ store: s3.store }, id, output, iso(13_000)),
    );

    const ok = deliveries.find((d) => d.answered === 200 && JSON.parse(d.body).renderId === id)!;
    const event = await verifyWebhook({ body: ok.body, headers: ok.headers, secret: SECRET });
    expect(event).toMatchObject({ type: 'render.completed', data: { size: 9, frames: 20 } });
    const data = event.data as { url: string; durationMs: number };
    expect(data.durationMs).toBeGreaterThan(0);
    expect(await (await fetch(data.url)).text()).toBe('MP4 bytes');

    const status = await app(svc).request(`/api/render/${id}`, { headers: { accept: 'application/json' } });
    expect(status.status).toBe(200);
    const progress = (await status.json()) as {
      webhook: { attempts: { status: number }[] };
      cost: {
        functions: Record<string, { invocations: number; gbSeconds: number; estimatedUsd: number }>;
        lambdaGbSeconds: number;
        pricing: { region: string };
        estimated: boolean;
        display: string;
      };
    };
    // The attempts made after the job finished show too (the runner delivers the webhooks itself).
    expect(progress.webhook.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    // plan 2 GB x 3 s = 6; chunks 2 x 2.9375 GB x 10 s = 58.75; assemble 1 GB x 2 s = 2.
    expect(progress.cost.functions.plan).toMatchObject({ invocations: 1, gbSeconds: 6 });
    expect(progress.cost.functions.renderChunk).toMatchObject({ invocations: 2, gbSeconds: 58.75 });
    expect(progress.cost.functions.assemble).toMatchObject({ invocations: 1, gbSeconds: 2 });
    expect(progress.cost.lambdaGbSeconds).toBe(66.75);
    expect(progress.cost).toMatchObject({ estimated: true, pricing: { region: 'eu-west-1' } });
    expect(progress.cost.display).toMatch(/\(estimate\)$/);

    // Delivered for good (its last attempt says no retry follows): from now on a status request
    // reads the job record only, not every record the steps wrote.
    const reads: string[] = [];
    const counting = {
      ...s3.store,
      get: (key: string, range?: Parameters<typeof s3.store.get>[1]) => (reads.push(key), s3.store.get(key, range)),
    };
    const settled = await app({ ...svc, store: counting }).request(`/api/render/${id}`, { headers: { accept: 'application/json' } });
    expect(settled.status).toBe(200);
    expect(reads).toEqual([`renders/${id}/job.json`]);
  });
});
