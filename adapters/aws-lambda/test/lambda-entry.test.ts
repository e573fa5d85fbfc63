import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getText } from '@seekframe/producer';
import { startLocalS3, type LocalS3 } from '../../s3-storage/test/support/local-s3.js';

/**
 * The deployed entry points as Lambda calls them, configured only through the environment
 * sst.config.ts sets, with the AWS SDK's own endpoint variables pointing at s3rver and at a
 * small Step Functions stand-in that records StartExecution.
 */
describe('lambda-entry (function URL events, direct invokes, the Catch payload)', () => {
  let s3: LocalS3;
  let sfn: http.Server;
  let project: string;
  const executions: { target: string; body: { stateMachineArn?: string; name?: string; input?: string; executionArn?: string } }[] = [];
  const names = new Set<string | undefined>();
  let entry: typeof import('../src/handlers/lambda-entry.js');

  beforeAll(async () => {
    s3 = await startLocalS3();
    sfn = http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (p: Buffer) => parts.push(p));
      req.on('end', () => {
        const call = { target: String(req.headers['x-amz-target']), body: JSON.parse(Buffer.concat(parts).toString('utf8')) };
        executions.push(call);
        // Like Step Functions: an execution name is taken (for 90 days) once it has been started.
        const start = call.target.endsWith('StartExecution');
        if (start && names.has(call.body.name)) {
          res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
          res.end(JSON.stringify({ __type: 'ExecutionAlreadyExists', message: `Execution Already Exists: ${call.body.name}` }));
          return;
        }
        if (start) names.add(call.body.name);
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ executionArn: `arn:aws:states:us-east-1:123456789012:execution:render:${call.body.name}`, startDate: 1 }));
      });
    });
    await new Promise<void>((resolve) => sfn.listen(0, '127.0.0.1', resolve));
    project = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-entry-'));
    await writeFile(
      path.join(project, 'index.html'),
      '<html data-composition-id="c" data-width="16" data-height="16" data-duration="1"></html>',
    );
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_SFN: `http://127.0.0.1:${(sfn.address() as AddressInfo).port}`,
      SEEKFRAME_BUCKET: s3.bucket,
      SEEKFRAME_STATE_MACHINE_ARN: 'arn:aws:states:us-east-1:123456789012:stateMachine:render',
      SEEKFRAME_COMPOSITION_DIR: project,
      SEEKFRAME_ACCOUNT_CONCURRENCY: '10',
    });
    entry = await import('../src/handlers/lambda-entry.js');
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => sfn?.close(() => resolve()));
    await s3?.close();
    await rm(project, { recursive: true, force: true });
  });

  const urlEvent = (method: string, rawPath: string, body?: string) => ({
    version: '2.0',
    routeKey: '$default',
    rawPath,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', host: 'abc.lambda-url.us-east-1.on.aws' },
    requestContext: {
      http: { method, path: rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' },
      domainName: 'abc.lambda-url.us-east-1.on.aws',
      requestId: 'r',
      timeEpoch: 0,
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded: false,
  });

  it('POST /api/render stores the request and the deployed composition and starts one execution named after the render and its start', async () => {
    const answer = (await entry.api(urlEvent('POST', '/api/render', '{"quality":"draft"}'), {})) as unknown as {
      statusCode: number;
      body: string;
    };
    expect(answer.statusCode).toBe(202);
    const { id } = JSON.parse(answer.body) as { id: string };
    expect(executions.filter((e) => e.target.endsWith('StartExecution'))).toHaveLength(1);
    expect(executions[0]!.target).toBe('AWSStepFunctions.StartExecution');
    expect(executions[0]!.body).toEqual({
      stateMachineArn: process.env.SEEKFRAME_STATE_MACHINE_ARN,
      name: expect.stringMatching(new RegExp(`^${id}-[0-9a-z]+$`)),
      input: JSON.stringify({ renderId: id }),
    });
    expect(await s3.store.head(`renders/${id}/project.tar.gz`)).not.toBeNull();
    expect(JSON.parse((await getText(s3.store, `renders/${id}/request.json`))!)).toMatchObject({
      chunking: { accountConcurrency: 10 },
      chunkTimeoutSeconds: 900,
    });

    const running = (await entry.api(urlEvent('GET', `/api/render/${id}`), {})) as unknown as { statusCode: number; body: string };
    expect(running.statusCode).toBe(202);
    expect(JSON.parse(running.body)).toMatchObject({ id, status: 'running', stage: 'load', step: 'plan' });

    // The state machine's Catch hands RecordFailure the error name and Lambda's error JSON.
    const cause = JSON.stringify({
      errorType: 'Seekframe.Fatal',
      errorMessage: JSON.stringify({ code: 'lint-failed', message: 'index.html: no root', retryable: false }),
    });
    await entry.fail({ renderId: id, error: { Error: 'Seekframe.Fatal', Cause: cause } });
    const failed = (await entry.api(urlEvent('GET', `/api/render/${id}`), {})) as unknown as { statusCode: number; body: string };
    expect(failed.statusCode).toBe(400);
    expect(JSON.parse(failed.body)).toEqual({ error: { code: 'lint-failed', message: 'index.html: no root', retryable: false } });
  });

  it('DELETE stops the execution it started and records it cancelled', async () => {
    const started = (await entry.api(urlEvent('POST', '/api/render', '{}'), {})) as unknown as { statusCode: number; body: string };
    const { id } = JSON.parse(started.body) as { id: string };
    const cancelled = (await entry.api(urlEvent('DELETE', `/api/render/${id}`), {})) as unknown as { statusCode: number; body: string };
    expect(cancelled.statusCode).toBe(202);
    expect(JSON.parse(cancelled.body)).toEqual({ id, status: 'cancelled' });
    const startName = executions.find(
      (e) => e.target === 'AWSStepFunctions.StartExecution' && e.body.input === JSON.stringify({ renderId: id }),
    )!.body.name;
    const stop = executions.find((e) => e.target === 'AWSStepFunctions.StopExecution');
    expect(stop?.body).toMatchObject({ executionArn: `arn:aws:states:us-east-1:123456789012:execution:render:${startName}` });
    const after = (await entry.api(urlEvent('GET', `/api/render/${id}`), {})) as unknown as { statusCode: number; body: string };
    expect(after.statusCode).toBe(409);
    expect(JSON.parse(after.body).error.code).toBe('render-cancelled');
    const again = (await entry.api(urlEvent('DELETE', `/api/render/${id}`), {})) as unknown as { statusCode: number; body: string };
    expect(again.statusCode).toBe(409);
    expect(JSON.parse(again.body).error.code).toBe('render-not-running');
  });

  it('an Idempotency-Key reused after its render expired (the bucket keeps 30 days, Step Functions a name 90) starts a new execution, not a render queued forever', async () => {
    const post = async () =>
      (await entry.api(
        {
          ...urlEvent('POST', '/api/render', '{}'),
          headers: { ...urlEvent('POST', '/api/render').headers, 'idempotency-key': 'order-17' },
        },
        {},
      )) as unknown as {
        statusCode: number;
        body: string;
      };
    const first = await post();
    const { id } = JSON.parse(first.body) as { id: string };
    const startsOf = () =>
      executions.filter((e) => e.target.endsWith('StartExecution') && e.body.input === JSON.stringify({ renderId: id }));
    // A retry within retention is the same render: its start is not repeated under another name.
    expect(JSON.parse((await post()).body).id).toBe(id);
    expect(new Set(startsOf().map((e) => e.body.name)).size).toBe(1);
    // The bucket's lifecycle rule deletes the render's objects; the execution name stays taken.
    for (const object of await s3.store.list!(`renders/${id}/`)) await s3.store.delete(object.key);
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later millisecond, as 30 days later is
    const again = await post();
    expect(again.statusCode).toBe(202);
    expect(JSON.parse(again.body).id).toBe(id);
    const names = startsOf().map((e) => e.body.name);
    expect(new Set(names).size).toBe(2);
    // The new execution was accepted: the render is running (its plan step reads request.json).
    const status = (await entry.api(urlEvent('GET', `/api/render/${id}`), {})) as unknown as { statusCode: number; body: string };
    expect(JSON.parse(status.body)).toMatchObject({ id, status: 'running' });
    expect(await s3.store.head(`renders/${id}/request.json`)).not.toBeNull();
  });

  it("reads RENDER_API_TOKEN and RENDER_MAX_FRAMES as every render API does: SST's empty secret is no token, a blank one refuses to serve, the frame cap reaches the stored request", async () => {
    // A cold function: the module anew, its settings read at its first request.
    const fresh = async (settings: Record<string, string>, event: ReturnType<typeof urlEvent>) => {
      Object.assign(process.env, settings);
      vi.resetModules();
      try {
        const cold = (await import('../src/handlers/lambda-entry.js')) as typeof entry;
        return (await cold.api(event, {})) as unknown as { statusCode: number; body: string };
      } finally {
        for (const name of Object.keys(settings)) delete process.env[name];
      }
    };
    // Blank (a stray space): refused, not read as "no token", which would open the API to anyone.
    await expect(fresh({ RENDER_API_TOKEN: ' ' }, urlEvent('GET', '/api/composition'))).rejects.toMatchObject({
      code: 'invalid-server-options',
      details: { variable: 'RENDER_API_TOKEN' },
    });
    // Empty (SST's value for a secret nobody set) with a frame cap: open, and the cap is stored.
    const unset = { RENDER_API_TOKEN: '', RENDER_WEBHOOK_SECRET: '' };
    // The deployed composition is 1 s at 30 fps: over a cap of 15 it is refused at POST.
    const over = await fresh({ ...unset, RENDER_MAX_FRAMES: '15' }, urlEvent('POST', '/api/render', '{}'));
    expect([over.statusCode, JSON.parse(over.body).error.code]).toEqual([400, 'limit-exceeded']);
    const answer = await fresh({ ...unset, RENDER_MAX_FRAMES: '100' }, urlEvent('POST', '/api/render', '{}'));
    expect(answer.statusCode).toBe(202);
    const { id } = JSON.parse(answer.body) as { id: string };
    expect(JSON.parse((await getText(s3.store, `renders/${id}/request.json`))!)).toMatchObject({ limits: { maxFrames: 100 } });
    // A token, then, only in the environment: the same routes need it, and serve with it.
    expect((await fresh({ RENDER_API_TOKEN: 'sekret' }, urlEvent('GET', '/api/composition'))).statusCode).toBe(401);
    const authorized = urlEvent('GET', '/api/composition');
    authorized.headers = { ...authorized.headers, authorization: 'Bearer sekret' } as typeof authorized.headers;
    expect((await fresh({ RENDER_API_TOKEN: 'sekret' }, authorized)).statusCode).toBe(200);
    // Malformed: refused by name, never read as a default.
    for (const [name, value] of [
      ['RENDER_MAX_FRAMES', 'lots'],
      ['RENDER_WEBHOOK_ALLOW_LOOPBACK', 'yes'],
      ['SEEKFRAME_MAX_CONCURRENCY', 'ten'],
    ] as const) {
      await expect(fresh({ [name]: value }, urlEvent('GET', '/api/composition')), name).rejects.toMatchObject({
        code: 'invalid-server-options',
        details: { variable: name },
      });
    }
  });

  it('a blank RENDER_WEBHOOK_SECRET (spaces) refuses every function at its start (module load), not only the API', async () => {
    process.env.RENDER_WEBHOOK_SECRET = '  ';
    vi.resetModules();
    try {
      await expect(import('../src/handlers/lambda-entry.js')).rejects.toMatchObject({
        code: 'invalid-server-options',
        details: { variable: 'RENDER_WEBHOOK_SECRET' },
      });
    } finally {
      delete process.env.RENDER_WEBHOOK_SECRET;
    }
  });

  it('a direct invoke that fails throws the typed failure (its name drives the retry table, its message is the error JSON)', async () => {
    const error = (await entry.api({ type: 'progress', id: 'zzzzzzzz-none' }, {}).catch((e: unknown) => e)) as Error;
    expect(error.name).toBe('Seekframe.Fatal');
    expect(JSON.parse(error.message)).toMatchObject({ code: 'render-not-found' });
  });
});
