import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

/**
 * A stand-in for the Lambda service's side of the Runtime API on 127.0.0.1: `invoke(event)` queues
 * an invocation, the function's runtime fetches it from /next and posts its response or error,
 * which settles the promise (an error as an Error whose name is the errorType, the way Step
 * Functions sees it). Only the routes a runtime calls.
 */
export interface RuntimeApiStandIn {
  /** host:port for AWS_LAMBDA_RUNTIME_API. */
  address: string;
  invoke(event: unknown): Promise<unknown>;
  /** Set when the runtime reported an initialisation error. */
  initError(): { errorType: string; errorMessage: string } | undefined;
  close(): Promise<void>;
}

interface Pending {
  id: string;
  event: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export async function startRuntimeApi(options: { deadlineMs?: number } = {}): Promise<RuntimeApiStandIn> {
  const queue: Pending[] = [];
  const inFlight = new Map<string, Pending>();
  const waiting: http.ServerResponse[] = [];
  let initError: { errorType: string; errorMessage: string } | undefined;

  const deliver = (): void => {
    while (queue.length && waiting.length) {
      const next = queue.shift()!;
      const res = waiting.shift()!;
      inFlight.set(next.id, next);
      res.writeHead(200, {
        'content-type': 'application/json',
        'lambda-runtime-aws-request-id': next.id,
        'lambda-runtime-deadline-ms': String(Date.now() + (options.deadlineMs ?? 900_000)),
        'lambda-runtime-invoked-function-arn': 'arn:aws:lambda:us-east-1:123456789012:function:seekframe-test',
      });
      res.end(JSON.stringify(next.event));
    }
  };

  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'GET' && url === '/2018-06-01/runtime/invocation/next') {
        waiting.push(res);
        deliver();
        return;
      }
      const done = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(url);
      if (req.method === 'POST' && done) {
        const pending = inFlight.get(done[1]!);
        if (!pending) return void res.writeHead(400).end('{"errorMessage":"unknown request id"}');
        inFlight.delete(done[1]!);
        if (done[2] === 'response') pending.resolve(JSON.parse(body || 'null'));
        else {
          const failure = JSON.parse(body) as { errorType: string; errorMessage: string };
          pending.reject(Object.assign(new Error(failure.errorMessage), { name: failure.errorType }));
        }
        return void res.writeHead(202).end('{"status":"OK"}');
      }
      if (req.method === 'POST' && url === '/2018-06-01/runtime/init/error') {
        initError = JSON.parse(body) as { errorType: string; errorMessage: string };
        for (const pending of [...queue.splice(0), ...inFlight.values()])
          pending.reject(Object.assign(new Error(initError.errorMessage), { name: initError.errorType }));
        return void res.writeHead(202).end('{"status":"OK"}');
      }
      res.writeHead(404).end();
    });
  });
  // A runtime waits on /next for as long as it takes.
  server.requestTimeout = 0;
  server.headersTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    invoke(event) {
      return new Promise((resolve, reject) => {
        if (initError) return reject(Object.assign(new Error(initError.errorMessage), { name: initError.errorType }));
        queue.push({ id: randomUUID(), event, resolve, reject });
        deliver();
      });
    },
    initError: () => initError,
    async close() {
      for (const res of waiting.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
