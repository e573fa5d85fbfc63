import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LambdaClient } from '@aws-sdk/client-lambda';

/**
 * A stand-in for the Lambda Invoke API (POST /2015-03-31/functions/<name>/invocations), driven
 * by the real @aws-sdk/client-lambda. A handler that throws answers like Lambda does: HTTP 200
 * with `X-Amz-Function-Error: Unhandled` and `{errorType, errorMessage}`.
 */
export async function startLambdaInvokeFake(
  functions: Record<string, (event: unknown) => Promise<unknown>>,
): Promise<{ client: LambdaClient; calls: { name: string; event: unknown }[]; close(): Promise<void> }> {
  const calls: { name: string; event: unknown }[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', async () => {
      const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations/.exec(req.url ?? '');
      const name = decodeURIComponent(match?.[1] ?? '');
      const fn = functions[name];
      if (req.method !== 'POST' || !fn) {
        res.writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' });
        res.end(JSON.stringify({ Type: 'User', message: `Function not found: ${name}` }));
        return;
      }
      const event = JSON.parse(Buffer.concat(parts).toString('utf8') || 'null') as unknown;
      calls.push({ name, event });
      try {
        const result = await fn(event);
        res.writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' });
        res.end(JSON.stringify(result ?? null));
      } catch (error) {
        const e = error instanceof Error ? error : new Error(String(error));
        res.writeHead(200, {
          'content-type': 'application/json',
          'x-amz-function-error': 'Unhandled',
          'x-amz-executed-version': '$LATEST',
        });
        res.end(JSON.stringify({ errorType: e.name, errorMessage: e.message, trace: [] }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new LambdaClient({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'fake', secretAccessKey: 'fake' },
    maxAttempts: 1,
  });
  return {
    client,
    calls,
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
