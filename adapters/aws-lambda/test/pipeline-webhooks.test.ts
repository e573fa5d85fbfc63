import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, type WebhookEvent } from '@seekframe/producer/webhooks';
import { runLocalRender } from '../src/local/run-local-render.js';
import { producerCore } from '@seekframe/producer/distributed';
import { systemRuntime } from '@seekframe/producer/distributed';
import { webhooksFromEnv } from '../src/webhooks/webhooks-from-env.js';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';
import { seamProject, tempDir } from './support/media.js';

const SECRET = 'pipeline-webhook-secret';

/**
 * A whole distributed render (real core, Chromium, ffmpeg, s3rver) with a webhook: the plan step
 * sends render.started, finished chunks render.progress, the assemble step render.completed, in
 * that order, each signed, to a real receiver on 127.0.0.1 (RENDER_WEBHOOK_ALLOW_LOOPBACK=true).
 */
describe('Lambda step functions send the render events', () => {
  let s3: LocalS3;
  let project: Awaited<ReturnType<typeof seamProject>>;
  let work: string;
  let receiver: Server;
  let url: string;
  const deliveries: { body: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    s3 = await startLocalS3({ strict: true });
    project = await seamProject({ seconds: 2, fps: 10 });
    work = await tempDir('seekframe-lambda-webhooks-');
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (c: string) => (body += c));
      req.on('end', () => {
        deliveries.push({ body, headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await s3?.close();
    await project?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('started, progress, completed in order; completed has the presigned URL, size and frames; the status lists the attempts', async () => {
    const settings = webhooksFromEnv({ RENDER_WEBHOOK_SECRET: SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' });
    const { renderId, output, progress } = await runLocalRender({
      store: s3.store,
      core: producerCore,
      runtime: systemRuntime(),
      workRoot: path.join(work, 'render'),
      projectDir: project.dir,
      request: { quality: 'draft', webhook: { url, customData: { batch: 3 } } },
      chunking: { chunkCount: 2 },
      maxConcurrency: 2,
      webhooks: { ...settings.webhooks!, progressIntervalMs: 1 },
      webhookGate: settings.gate,
    });
    const events: WebhookEvent[] = [];
    for (const d of deliveries) events.push(await verifyWebhook({ body: d.body, headers: d.headers, secret: SECRET }));
    expect(events.every((e) => e.renderId === renderId && JSON.stringify(e.customData) === '{"batch":3}')).toBe(true);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('render.started');
    expect(types.at(-1)).toBe('render.completed');
    expect(types.filter((t) => t === 'render.progress').length).toBeGreaterThanOrEqual(1);
    expect(types.filter((t) => t === 'render.started' || t === 'render.completed')).toEqual(['render.started', 'render.completed']);
    const completed = events.at(-1)!.data as { url: string; size: number; frames: number; durationMs: number };
    expect(completed).toMatchObject({ size: output.size, frames: 20 });
    expect((await fetch(completed.url)).status).toBe(200);
    expect(progress.webhook?.attempts.map((a) => a.event)).toEqual(types);
    expect(progress.webhook?.attempts.every((a) => a.ok && a.status === 204)).toBe(true);
  }, 300_000);
});
