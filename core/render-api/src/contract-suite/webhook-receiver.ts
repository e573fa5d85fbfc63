import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery as a receiver got it: the raw body and headers, and the status it answered. */
export interface ReceivedDelivery {
  body: string;
  headers: IncomingHttpHeaders;
  answered: number;
}

export interface WebhookReceiver {
  url: string;
  deliveries: ReceivedDelivery[];
  /** Resolves once `predicate` holds for the deliveries (checked on each new one), or rejects after `timeoutMs`. */
  waitFor(predicate: (deliveries: ReceivedDelivery[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real webhook receiver on 127.0.0.1 for tests: it answers 500 to the first `failFirst`
 * deliveries of each event id (`Seekframe-Webhook-Id`), then 200, and keeps every delivery raw.
 */
export async function startWebhookReceiver(options: { failFirst?: number } = {}): Promise<WebhookReceiver> {
  const deliveries: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const id = String(request.headers['seekframe-webhook-id'] ?? '');
      const earlier = deliveries.filter((d) => d.headers['seekframe-webhook-id'] === id).length;
      const answered = earlier < (options.failFirst ?? 0) ? 500 : 200;
      deliveries.push({ body, headers: request.headers, answered });
      response.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'failing on purpose');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/seekframe`,
    deliveries,
    waitFor(predicate, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(deliveries)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `the receiver did not get the expected deliveries within ${timeoutMs} ms; it got: ${deliveries.map((d) => `${d.headers['seekframe-event']}->${d.answered}`).join(', ') || 'nothing'}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The receiver's URL with host 0.0.0.0: a private address ("this network", never loopback, so
 * RENDER_WEBHOOK_ALLOW_LOOPBACK keeps it refused) that, should a refusal break, Linux connects to
 * this machine's loopback receiver, which records the leak, instead of sending anything to a network.
 */
export function thisNetworkUrl(receiver: Pick<WebhookReceiver, 'url'>): string {
  const url = new URL(receiver.url);
  url.hostname = '0.0.0.0';
  return url.href;
}
