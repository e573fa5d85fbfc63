import { afterEach, describe, expect, it } from 'vitest';
import { LambdaFailure } from '../retry/retry-table.js';
import { startRuntimeApi, type RuntimeApiStandIn } from '../../test/support/runtime-api-stand-in.js';
import { reportInitError, serveInvocations, type InvocationContext } from './runtime-api.js';

let api: RuntimeApiStandIn | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('serveInvocations (the Runtime API loop of the Lambda image)', () => {
  it('answers each invocation with the handler result, with the deadline and memory in the context', async () => {
    api = await startRuntimeApi({ deadlineMs: 60_000 });
    const seen: InvocationContext[] = [];
    const serving = serveInvocations(
      async (event, context) => {
        seen.push(context);
        return { echo: event };
      },
      { api: api.address, env: { AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008', AWS_LAMBDA_FUNCTION_NAME: 'seekframe-plan' }, maxInvocations: 2 },
    );
    expect(await api.invoke({ renderId: 'a' })).toEqual({ echo: { renderId: 'a' } });
    expect(await api.invoke({ renderId: 'b' })).toEqual({ echo: { renderId: 'b' } });
    await serving;
    expect(seen.map((c) => [c.functionName, c.memoryLimitInMB])).toEqual([
      ['seekframe-plan', '3008'],
      ['seekframe-plan', '3008'],
    ]);
    expect(seen[0]!.getRemainingTimeInMillis()).toBeGreaterThan(0);
    expect(seen[0]!.getRemainingTimeInMillis()).toBeLessThanOrEqual(60_000);
  });

  it("posts a thrown error with its name as errorType, so Step Functions' Retry matches our typed failures, and keeps serving", async () => {
    api = await startRuntimeApi();
    let calls = 0;
    const serving = serveInvocations(
      async () => {
        calls += 1;
        if (calls === 1)
          throw new LambdaFailure({ kind: 'fatal', error: { code: 'version-mismatch', message: 'different ffmpeg', retryable: false } });
        return 'ok';
      },
      { api: api.address, maxInvocations: 2 },
    );
    const error = await api.invoke({}).then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.name).toBe('Seekframe.Fatal');
    expect(JSON.parse(error!.message)).toMatchObject({ code: 'version-mismatch' });
    expect(await api.invoke({})).toBe('ok');
    await serving;
  });

  it('reports an initialisation error to the init route', async () => {
    api = await startRuntimeApi();
    await reportInitError(api.address, new TypeError('handler missing'));
    expect(api.initError()).toMatchObject({ errorType: 'TypeError', errorMessage: 'handler missing' });
  });
});
