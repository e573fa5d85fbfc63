import { InvokeCommand, type LambdaClient } from '@aws-sdk/client-lambda';
import { SeekframeError } from '@seekframe/composition';
import { lambdaError } from '../errors.js';
import { failureData } from '../retry/retry-table.js';

/**
 * Calls the API function through the Lambda Invoke API. A function error comes back as HTTP 200
 * with `FunctionError` set: that is a failure, rebuilt here into the SeekframeError it was.
 */
export async function invokeApi<T>(lambda: LambdaClient, functionName: string, event: unknown): Promise<T> {
  let answer;
  try {
    answer = await lambda.send(
      new InvokeCommand({ FunctionName: functionName, InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(event)) }),
    );
  } catch (error) {
    throw lambdaError(
      'lambda-invoke-failed',
      `Invoking ${functionName} failed: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}. Check the function name, region and AWS credentials.`,
      {
        retryable: true,
        cause: error,
      },
    );
  }
  const text = answer.Payload ? Buffer.from(answer.Payload).toString('utf8') : '';
  if (answer.FunctionError) {
    let payload: { errorType?: string; errorMessage?: string } = {};
    try {
      payload = JSON.parse(text) as typeof payload;
    } catch {
      // not JSON: keep the text
    }
    const data = failureData(payload.errorType ?? answer.FunctionError, payload.errorMessage ?? text);
    if (data.code === 'internal-error') {
      throw lambdaError('lambda-invoke-failed', `${functionName} failed (${answer.FunctionError}): ${payload.errorMessage ?? text}`, {
        details: { functionError: answer.FunctionError },
      });
    }
    throw SeekframeError.fromJSON(data);
  }
  return JSON.parse(text) as T;
}
