import { describe, expect, it } from 'vitest';
import { BADGE_RGB, call, countColorPixels, pollUntilDone, post, probeVideo, RENDER_TEST_MS, type Answer } from './contract-http.js';
import { JobProgressSchema } from '../render-job.js';
import { expectError } from './contract-routes.js';
import { has, useTarget, type RenderApiContractOptions } from './run-render-api-contract.js';

/** The default answer of POST /api/render, followed to the MP4's URL. */
async function renderByDefault(
  base: string,
  options: RenderApiContractOptions,
  body: unknown,
): Promise<{ fileUrl: string; answer: Answer }> {
  const answer = await post(base, body);
  if (options.answerMode === 'async') {
    // Every start answers 202 {id, statusUrl} (the Lambda API); the file is at the status URL once done.
    expect(answer.status).toBe(202);
    expect(answer.json).toEqual({ id: expect.any(String), statusUrl: `/api/render/${encodeURIComponent(answer.json.id)}` });
    const { final } = await pollUntilDone(base, answer.json.statusUrl);
    expect(final.status, `the render ended: ${JSON.stringify(final.json)}`).toBe(200);
    return { fileUrl: answer.json.statusUrl, answer };
  }
  expect(answer.status).toBe(200);
  if (options.answerMode === 'sync') {
    expect(answer.json).toEqual({
      id: expect.any(String),
      url: expect.any(String),
      key: expect.any(String),
      durationMs: expect.any(Number),
    });
    return { fileUrl: answer.json.url, answer };
  }
  expect(Object.keys(answer.json)).toEqual(['call_id']);
  const statusUrl = `/api/render/${encodeURIComponent(answer.json.call_id)}`;
  const { final } = await pollUntilDone(base, statusUrl);
  expect(final.status, `the render ended: ${JSON.stringify(final.json)}`).toBe(200);
  return { fileUrl: statusUrl, answer };
}

/** Renders, progress, the file with Range, idempotency and cancel. */
export function defineRenderContract(options: RenderApiContractOptions): void {
  describe('rendering', () => {
    const base = useTarget(options, {});
    let fileUrl = '';
    let renderId = '';

    it(
      `POST /api/render answers as the ${options.answerMode} template does, and the file is a real MP4 of the variables' render`,
      async () => {
        const { fileUrl: url, answer } = await renderByDefault(base(), options, { variables: { title: 'Contract', size: 30 } });
        fileUrl = url;
        renderId = answer.json.id ?? answer.json.call_id;
        const file = await call(base(), fileUrl);
        expect(file.status).toBe(200);
        expect(file.headers.get('content-type')).toBe('video/mp4');
        const video = await probeVideo(file.bytes);
        expect(video).toMatchObject({ codec: 'h264', width: 160, height: 90, frames: 10 });
        expect(video.formatName).toContain('mp4');
        // The sub-composition the preview plays is in the render too (the 30x20 badge).
        expect(await countColorPixels(file.bytes, 'mp4', BADGE_RGB)).toBeGreaterThan(300);
      },
      RENDER_TEST_MS,
    );

    it(
      'the finished render answers JSON with Accept: application/json, and the file with Range',
      async () => {
        expect(renderId).not.toBe('');
        const status = await call(base(), `/api/render/${encodeURIComponent(renderId)}`, { headers: { accept: 'application/json' } });
        expect(status.status).toBe(200);
        expect(status.json).toMatchObject({ id: renderId, status: 'completed', progress: 1 });
        expect(status.json.result).toMatchObject({ key: expect.any(String), durationMs: expect.any(Number) });

        const whole = await call(base(), fileUrl);
        const size = whole.bytes.length;
        // Ranges are asked of the URL the file really comes from (a redirect target, if any).
        const part = await call(whole.url, whole.url, { headers: { range: 'bytes=0-99' } });
        expect(part.status).toBe(206);
        expect(part.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
        expect(Buffer.from(part.bytes).equals(Buffer.from(whole.bytes.subarray(0, 100)))).toBe(true);
        const tail = await call(whole.url, whole.url, { headers: { range: 'bytes=-10' } });
        expect(tail.status).toBe(206);
        expect(Buffer.from(tail.bytes).equals(Buffer.from(whole.bytes.subarray(size - 10)))).toBe(true);
        const beyond = await call(whole.url, whole.url, { headers: { range: `bytes=${size}-` } });
        expect(beyond.status).toBe(416);
      },
      RENDER_TEST_MS,
    );

    it(
      'frames renders only that span of the composition: "2-5" is an MP4 of 4 frames',
      async () => {
        const { fileUrl: url } = await renderByDefault(base(), options, { variables: { title: 'Span' }, frames: '2-5' });
        const file = await call(base(), url);
        expect(file.status).toBe(200);
        expect(await probeVideo(file.bytes)).toMatchObject({ codec: 'h264', width: 160, height: 90, frames: 4 });
      },
      RENDER_TEST_MS,
    );

    if (has(options, 'stills'))
      it(
        'still renders one frame as a PNG ({"time": "0.45s"}): image/png, one frame of the composition size',
        async () => {
          const { fileUrl: url } = await renderByDefault(base(), options, { variables: { title: 'Still' }, still: { time: '0.45s' } });
          const file = await call(base(), url);
          expect(file.status).toBe(200);
          expect(file.headers.get('content-type')).toBe('image/png');
          expect(Buffer.from(file.bytes.subarray(1, 4)).toString('latin1')).toBe('PNG');
          expect(await probeVideo(file.bytes, 'png')).toMatchObject({ codec: 'png', width: 160, height: 90, frames: 1 });
        },
        RENDER_TEST_MS,
      );

    it(
      'Prefer: respond-async answers 202 {id, statusUrl} + Location; polling shows progress, then the MP4',
      async () => {
        const started = await post(base(), { variables: { title: 'Async' } }, { prefer: 'respond-async' });
        expect(started.status).toBe(202);
        expect(started.json).toEqual({ id: expect.any(String), statusUrl: `/api/render/${encodeURIComponent(started.json.id)}` });
        expect(new URL(started.headers.get('location')!, base()).pathname).toBe(started.json.statusUrl);
        const { final, polls } = await pollUntilDone(base(), started.json.statusUrl);
        // Beyond the shared fields, a poll may carry exactly what the deployment's runner declares
        // in its OpenAPI document (the Lambda API's step, chunks, cost...), and nothing else.
        const document = (await call(base(), '/api/openapi.json')).json;
        const shared = new Set(Object.keys(JobProgressSchema.shape));
        const declared = Object.keys(document.components.schemas.JobProgress.properties as Record<string, unknown>);
        const runnerFields = declared.filter((field) => !shared.has(field));
        const base6 = ['framesRendered', 'id', 'progress', 'stage', 'status', 'totalFrames'];
        for (const poll of polls) {
          expect(poll.json).toMatchObject({ id: started.json.id, status: expect.stringMatching(/^(queued|running)$/) });
          expect(poll.json.progress).toBeGreaterThanOrEqual(0);
          expect(poll.json.progress).toBeLessThanOrEqual(1);
          expect(Number(poll.headers.get('retry-after'))).toBeGreaterThan(0);
          const keys = Object.keys(poll.json);
          expect(keys.filter((key) => base6.includes(key)).sort()).toEqual(base6);
          expect(keys.filter((key) => !base6.includes(key) && !runnerFields.includes(key))).toEqual([]);
        }
        expect(final.status, `the render ended: ${JSON.stringify(final.json)}`).toBe(200);
        expect(final.headers.get('content-type')).toBe('video/mp4');
        expect((await probeVideo(final.bytes)).frames).toBe(10);
      },
      RENDER_TEST_MS,
    );

    it(
      'Idempotency-Key: the same key and body give the same render; another body is 409 idempotency-conflict',
      async () => {
        const key = `contract-${Date.now()}`;
        const first = await post(base(), { variables: { title: 'Once' } }, { prefer: 'respond-async', 'idempotency-key': key });
        expect(first.status).toBe(202);
        const again = await post(base(), { variables: { title: 'Once' } }, { prefer: 'respond-async', 'idempotency-key': key });
        expect(again.status).toBe(202);
        expect(again.json.id).toBe(first.json.id);
        const other = await post(base(), { variables: { title: 'Twice' } }, { prefer: 'respond-async', 'idempotency-key': key });
        expectError(other, 409, 'idempotency-conflict');
        await call(base(), first.json.statusUrl, { method: 'DELETE' });
      },
      RENDER_TEST_MS,
    );

    it(
      'DELETE cancels a running render: 202, then the render stays cancelled (409 render-cancelled); a second DELETE is 409 render-not-running',
      async () => {
        const started = await post(base(), { variables: { title: 'Stop me', hold: true } }, { prefer: 'respond-async' });
        expect(started.status).toBe(202);
        const cancelled = await call(base(), started.json.statusUrl, { method: 'DELETE' });
        expect(cancelled.status).toBe(202);
        expect(cancelled.json).toEqual({ id: started.json.id, status: 'cancelled' });
        expectError(await call(base(), started.json.statusUrl), 409, 'render-cancelled');
        expectError(await call(base(), started.json.statusUrl, { method: 'DELETE' }), 409, 'render-not-running');
      },
      RENDER_TEST_MS,
    );
  });
}
