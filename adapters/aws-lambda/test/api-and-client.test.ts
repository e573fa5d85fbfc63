import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { compileErrors, validate } from '@readme/openapi-parser';
import { getText } from '@seekframe/producer';
import { JobProgressSchema, OPENAPI_PATH } from '@seekframe/render-api';
import { handleApiInvoke, isApiInvokeEvent } from '../src/api/api-invoke.js';
import { LambdaProgressFieldsSchema } from '../src/api/lambda-progress-fields.js';
import { createLambdaApiApp, type LambdaApiOptions } from '../src/api/lambda-render-api.js';
import { pendingWork } from '../src/api/pending-work.js';
import { getRenderProgress, renderOnLambda } from '../src/client/render-on-lambda.js';
import { classifyFailure, LambdaFailure } from '../src/retry/retry-table.js';
import { renderKeys } from '@seekframe/producer/distributed';
import { putJson } from '@seekframe/producer/distributed';
import { startLambdaInvokeFake } from './support/lambda-invoke-fake.js';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';

describe('API function (the render API over the Lambda runner) and typed client (s3rver behind a strict If-None-Match proxy, Lambda Invoke fake)', () => {
  let s3: LocalS3;
  let dir: string;
  let started: string[];
  let service: LambdaApiOptions;
  const work = pendingWork();
  let fake: Awaited<ReturnType<typeof startLambdaInvokeFake>>;

  beforeAll(async () => {
    s3 = await startLocalS3({ strict: true });
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-api-'));
    await writeFile(
      path.join(dir, 'index.html'),
      `<html data-composition-id="c" data-width="16" data-height="16" data-duration="1" data-composition-variables='[{"id":"title","label":"Title","type":"string","default":"x"}]'></html>`,
    );
    started = [];
    service = {
      store: s3.store,
      startWorkflow: async (id) => void started.push(id),
      chunking: { accountConcurrency: 10 },
      chunkTimeoutSeconds: 900,
      defaultProjectDir: dir,
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
  });
  afterAll(async () => {
    await fake?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const app = () => createLambdaApiApp({ ...service, compositionDir: dir, token: 'sekret', waitUntil: work.waitUntil });
  /** POST, then the runner's start (which the API function awaits before it returns). */
  const post = async (body: string, headers: Record<string, string> = {}) => {
    const answer = await app().request('/api/render', {
      method: 'POST',
      body,
      headers: { authorization: 'Bearer sekret', 'content-type': 'application/json', ...headers },
    });
    await work.settle();
    return answer;
  };

  it('starts a render (answer mode async): 202 {id, statusUrl}, Location, job, request and project stored, workflow started', async () => {
    const res = await post(JSON.stringify({ variables: { title: 'Hi' }, quality: 'draft' }));
    expect(res.status).toBe(202);
    const body = (await res.json()) as { id: string; statusUrl: string };
    expect(body).toEqual({ id: expect.any(String), statusUrl: `/api/render/${body.id}` });
    expect(res.headers.get('location')).toBe(`/api/render/${body.id}`);
    expect(res.headers.get('preference-applied')).toBeNull();
    expect(started).toContain(body.id);
    expect(await s3.store.head(renderKeys(body.id).project)).not.toBeNull();
    expect(JSON.parse((await getText(s3.store, renderKeys(body.id).request))!)).toMatchObject({
      id: body.id,
      request: { variables: { title: 'Hi' }, quality: 'draft' },
      chunkTimeoutSeconds: 900,
    });
    // The job record the next (stateless) invocation reads back.
    expect(JSON.parse((await getText(s3.store, renderKeys(body.id).job))!)).toMatchObject({
      id: body.id,
      status: 'running',
      outputKey: renderKeys(body.id).output,
    });
  });

  it("serves the one render API document, in answer mode async and with the runner's progress fields", async () => {
    const answer = await app().request(OPENAPI_PATH);
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as any;
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(document.info.title).toContain('AWS Lambda');
    expect(Object.keys(document.paths['/api/render'].post.responses)).not.toContain('200');
    expect(document.paths['/api/render'].post.responses['413'].description).toContain('variables-too-large');
    expect(Object.keys(document.components.schemas.JobProgress.properties)).toEqual(
      expect.arrayContaining(['step', 'chunks', 'cost', 'timeoutRisk', 'stage', 'progress']),
    );
  });

  it('is idempotent per Idempotency-Key and refuses the same key with another body (409)', async () => {
    const first = (await (await post('{"fps":10}', { 'idempotency-key': 'k1' })).json()) as { id: string };
    const again = await post('{"fps":10}', { 'idempotency-key': 'k1' });
    expect(again.status).toBe(202);
    expect(((await again.json()) as { id: string }).id).toBe(first.id);
    const conflict = await post('{"fps":12}', { 'idempotency-key': 'k1' });
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: { code: string } }).error.code).toBe('idempotency-conflict');
  });

  it('answers bad requests with the contract error shape', async () => {
    expect((await app().request('/api/render', { method: 'POST', body: '{}' })).status).toBe(401);
    const badJson = await post('{nope');
    expect(badJson.status).toBe(400);
    expect(((await badJson.json()) as { error: { code: string } }).error.code).toBe('invalid-json');
    const badBody = await post('{"fps":0,"extra":1}');
    expect(badBody.status).toBe(400);
    const err = (
      (await badBody.json()) as {
        error: { code: string; message: string; retryable: boolean; details: { problems: { field: string; message: string }[] } };
      }
    ).error;
    expect(err.code).toBe('invalid-body');
    expect(err.retryable).toBe(false);
    expect(err.details.problems.map((p) => p.field)).toEqual(expect.arrayContaining(['fps', 'body']));
    expect(err.message).toMatch(/unknown field\(s\) extra/);
    const html = await post('{"html":"<html></html>"}');
    expect(html.status).toBe(403);
    expect(((await html.json()) as { error: { code: string } }).error.code).toBe('custom-html-disabled');
    // A still is one PNG; Lambda chunks join mp4 videos: refused at POST, naming the field and the way to make one.
    const still = await post('{"still":{"time":"0.5s"}}');
    expect(still.status).toBe(400);
    const stillError = ((await still.json()) as { error: { code: string; message: string; details: { problems: { field: string }[] } } })
      .error;
    expect(stillError.code).toBe('invalid-body');
    expect(stillError.details.problems.map((p) => p.field)).toEqual(['still']);
    expect(stillError.message).toContain('seekframe still');
    const huge = await post(JSON.stringify({ variables: { blob: 'x'.repeat(257 * 1024) } }));
    expect(huge.status).toBe(413);
    const hugeErr = ((await huge.json()) as { error: { code: string; message: string } }).error;
    expect(['variables-too-large', 'body-too-large']).toContain(hugeErr.code);
    expect(hugeErr.message).toMatch(/URL/);
    const justOver = await post(JSON.stringify({ variables: { blob: 'x'.repeat(256 * 1024) } }));
    expect(((await justOver.json()) as { error: { code: string } }).error.code).toBe('variables-too-large');
    const badVariables = await post(JSON.stringify({ variables: { title: 5, color: 'red' } }));
    expect(badVariables.status).toBe(400);
    const variablesError = (
      (await badVariables.json()) as { error: { code: string; details: { problems: { id: string; kind: string }[] } } }
    ).error;
    expect(variablesError.code).toBe('invalid-variables');
    expect(variablesError.details.problems.map((p) => `${p.id}:${p.kind}`).sort()).toEqual(['color:undeclared', 'title:type-mismatch']);
    const unknown = await app().request('/api/render/zzzzzzzz-unknown', { headers: { authorization: 'Bearer sekret' } });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('render-not-found');
  });

  it('GET answers 202 with progress while running, then 302 to a presigned URL (200 JSON on request), or the typed error', async () => {
    const { id } = (await (await post('{}')).json()) as { id: string };
    const keys = renderKeys(id);
    const get = (accept = '*/*') => app().request(`/api/render/${id}`, { headers: { authorization: 'Bearer sekret', accept } });
    const running = await get();
    expect(running.status).toBe(202);
    expect(running.headers.get('retry-after')).toBe('2');
    const runningBody = await running.json();
    expect(runningBody).toMatchObject({
      id,
      status: 'running',
      stage: 'load',
      step: 'plan',
      chunks: { done: 0 },
      cost: { estimated: true },
    });
    // What the OpenAPI document says the progress is: the shared fields and the runner's.
    expect(JobProgressSchema.safeParse(runningBody).error).toBeUndefined();
    expect(LambdaProgressFieldsSchema.safeParse(runningBody).error).toBeUndefined();

    await s3.store.put(keys.output, 'not really a video', { contentType: 'video/mp4' });
    await putJson(s3.store, keys.status, {
      status: 'completed',
      finishedAt: new Date().toISOString(),
      output: { key: keys.output, size: 18, frames: 3 },
    });
    const done = await get();
    expect(done.status).toBe(302);
    const download = await fetch(done.headers.get('location')!);
    expect(await download.text()).toBe('not really a video');
    const json = await get('application/json');
    expect(json.status).toBe(200);
    const doneBody = (await json.json()) as {
      status: string;
      progress: number;
      step: string;
      result: { url: string; key: string; size: number };
    };
    expect(doneBody).toMatchObject({ status: 'completed', progress: 1, step: 'done', result: { key: keys.output, size: 18 } });
    expect(doneBody.result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);

    const other = ((await (await post('{}')).json()) as { id: string }).id;
    await putJson(s3.store, renderKeys(other).status, {
      status: 'failed',
      finishedAt: new Date().toISOString(),
      error: { code: 'lint-failed', message: 'bad composition', retryable: false },
    });
    const failed = await app().request(`/api/render/${other}`, { headers: { authorization: 'Bearer sekret' } });
    expect(failed.status).toBe(400);
    expect(await failed.json()).toEqual({ error: { code: 'lint-failed', message: 'bad composition', retryable: false } });
  });

  it('DELETE stops the workflow and records the render cancelled; a second DELETE is 409', async () => {
    const stopped: string[] = [];
    const stoppable = () =>
      createLambdaApiApp({
        ...service,
        stopWorkflow: async (id) => void stopped.push(id),
        compositionDir: dir,
        token: 'sekret',
        waitUntil: work.waitUntil,
      });
    const { id } = (await (await post('{}')).json()) as { id: string };
    const del = () => stoppable().request(`/api/render/${id}`, { method: 'DELETE', headers: { authorization: 'Bearer sekret' } });
    const cancelled = await del();
    expect(cancelled.status).toBe(202);
    expect(await cancelled.json()).toEqual({ id, status: 'cancelled' });
    expect(stopped).toEqual([id]);
    expect(JSON.parse((await getText(s3.store, renderKeys(id).status))!)).toMatchObject({ status: 'cancelled' });
    const status = await stoppable().request(`/api/render/${id}`, { headers: { authorization: 'Bearer sekret' } });
    expect(status.status).toBe(409);
    expect(((await status.json()) as { error: { code: string } }).error.code).toBe('render-cancelled');
    expect((await del()).status).toBe(409);
  });

  it('renderOnLambda uploads the project and starts through the Invoke API; a FunctionError (HTTP 200) is a typed failure', async () => {
    const target = { functionName: 'seekframe-api', bucket: s3.bucket, s3: s3.client, lambda: fake.client };
    const project = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-project-'));
    try {
      await writeFile(path.join(project, 'index.html'), '<html></html>');
      const render = await renderOnLambda(target, { projectDir: project, request: { fps: 10 } });
      expect(render.status).toBe('queued');
      expect(started).toContain(render.id);
      expect(fake.calls.at(-1)).toMatchObject({ name: 'seekframe-api', event: { type: 'start', id: render.id, request: { fps: 10 } } });
      expect(await s3.store.head(renderKeys(render.id).project)).not.toBeNull();
      const progress = await getRenderProgress(target, render.id);
      expect(progress).toMatchObject({ id: render.id, status: 'running', stage: 'plan' });

      const missing = await getRenderProgress(target, 'zzzzzzzz-missing').catch((e: unknown) => e);
      expect(missing).toBeInstanceOf(SeekframeError);
      expect((missing as SeekframeError).code).toBe('render-not-found');
      const badFps = await renderOnLambda(target, { projectDir: project, request: { fps: 1000 } }).catch((e: unknown) => e);
      expect((badFps as SeekframeError).code).toBe('invalid-body');
      const wrongName = await getRenderProgress({ ...target, functionName: 'nope' }, render.id).catch((e: unknown) => e);
      expect((wrongName as SeekframeError).code).toBe('lambda-invoke-failed');
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
