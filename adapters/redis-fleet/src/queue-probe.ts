import { SeekframeError } from '@seekframe/composition';
import { Redis } from 'ioredis';
import type { QueueSettings } from './queue-settings.js';

/** Errors that waiting will not fix: a password, a user or TLS that the server refuses. */
const REFUSED =
  /WRONGPASS|NOAUTH|invalid password|invalid username|ERR AUTH|NOPERM|certificate|self[- ]signed|CERT_|SSL|TLS|wrong version number/i;

/**
 * Connects once to the queue's Redis, so a start fails with the reason instead of waiting in
 * silence: a refused password or certificate at once, an unreachable server after `timeoutMs`
 * (it may still be starting, as in a compose file). Resolves when Redis answers PING.
 */
export async function probeQueue(settings: QueueSettings, timeoutMs: number): Promise<void> {
  let lastError: Error | undefined;
  const client = new Redis({ ...settings.connection, lazyConnect: true, retryStrategy: () => 500, maxRetriesPerRequest: 0 });
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (reason: string): void =>
        reject(
          new SeekframeError(
            'queue-unavailable',
            `The queue ${settings.display} ${reason}. Check --queue (REDIS_URL), REDIS_PASSWORD and, for rediss://, REDIS_TLS_CA_FILE.`,
            { stage: 'config', details: { queue: settings.display } },
          ),
        );
      const timer = setTimeout(
        () => fail(`did not answer within ${Math.round(timeoutMs / 1000)} s${lastError ? ` (last error: ${lastError.message})` : ''}`),
        timeoutMs,
      );
      client.on('error', (error: Error) => {
        lastError = error;
        if (REFUSED.test(error.message)) {
          clearTimeout(timer);
          fail(`refused the connection: ${error.message}`);
        }
      });
      client.on('ready', () => {
        client.ping().then(
          () => {
            clearTimeout(timer);
            resolve();
          },
          (error: Error) => {
            clearTimeout(timer);
            fail(`refused PING: ${error.message}`);
          },
        );
      });
      client.connect().catch((error: Error) => {
        lastError = error;
      });
    });
  } finally {
    client.disconnect();
  }
}
