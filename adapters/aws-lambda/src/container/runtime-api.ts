/**
 * The Lambda Runtime API loop of a container-image function (the part of a runtime that AWS's base
 * images ship as their runtime interface client): fetch the next event, run the handler, post its
 * result or its error, forever. Errors are posted the way AWS's Node.js runtime posts them
 * (errorType = the error's name), so Step Functions' Retry/Catch match our typed failures by name.
 * https://docs.aws.amazon.com/lambda/latest/dg/runtimes-api.html
 */
export interface InvocationContext {
  awsRequestId: string;
  functionName: string;
  memoryLimitInMB: string;
  invokedFunctionArn: string;
  getRemainingTimeInMillis(): number;
}

export type Handler = (event: unknown, context: InvocationContext) => Promise<unknown>;

export interface RuntimeApiOptions {
  /** AWS_LAMBDA_RUNTIME_API: host:port of the Runtime API. */
  api: string;
  env?: NodeJS.ProcessEnv;
  /** Stop after this many invocations (tests); forever by default, as on Lambda. */
  maxInvocations?: number;
}

const VERSION = '2018-06-01';

interface ErrorBody {
  errorType: string;
  errorMessage: string;
  trace: string[];
}

export function errorBody(error: unknown): ErrorBody {
  if (error instanceof Error)
    return { errorType: error.name || 'Error', errorMessage: error.message, trace: (error.stack ?? '').split('\n') };
  return { errorType: 'Error', errorMessage: String(error), trace: [] };
}

async function post(url: string, body: unknown, errorType?: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(errorType ? { 'lambda-runtime-function-error-type': errorType } : {}) },
    body: JSON.stringify(body ?? null),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`Runtime API ${url} answered HTTP ${response.status}`);
}

/** Reports a failed initialisation (the handler could not be loaded) and gives up. */
export async function reportInitError(api: string, error: unknown): Promise<void> {
  const body = errorBody(error);
  await post(`http://${api}/${VERSION}/runtime/init/error`, body, `Runtime.${body.errorType}`);
}

/** Serves invocations with `handler` until the process ends (or `maxInvocations`). */
export async function serveInvocations(handler: Handler, options: RuntimeApiOptions): Promise<void> {
  const env = options.env ?? process.env;
  const base = `http://${options.api}/${VERSION}/runtime/invocation`;
  for (let served = 0; options.maxInvocations === undefined || served < options.maxInvocations; served++) {
    const next = await fetch(`${base}/next`);
    if (!next.ok) throw new Error(`Runtime API ${base}/next answered HTTP ${next.status}`);
    const requestId = next.headers.get('lambda-runtime-aws-request-id') ?? '';
    const deadline = Number(next.headers.get('lambda-runtime-deadline-ms') ?? Date.now() + 900_000);
    const event = (await next.json()) as unknown;
    const context: InvocationContext = {
      awsRequestId: requestId,
      functionName: env.AWS_LAMBDA_FUNCTION_NAME ?? '',
      memoryLimitInMB: env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '',
      invokedFunctionArn: next.headers.get('lambda-runtime-invoked-function-arn') ?? '',
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    };
    let result: unknown;
    try {
      result = await handler(event, context);
    } catch (error) {
      const body = errorBody(error);
      await post(`${base}/${requestId}/error`, body, body.errorType);
      continue;
    }
    await post(`${base}/${requestId}/response`, result);
  }
}
