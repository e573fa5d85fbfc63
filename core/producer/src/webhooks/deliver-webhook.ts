import { signWebhook, SIGNATURE_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_ID_HEADER } from './webhook-signature.js';
import type { WebhookEvent } from './webhook-events.js';
import type { WebhookAttempt } from './webhook-attempt.js';

export type { WebhookAttempt };

/**
 * Waits before the 2nd, 3rd, 4th and 5th attempt: 5 attempts in all, about 85 s from the first to
 * the last, so a receiver that restarts or deploys in between still gets the event.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 4_000, 16_000, 64_000];
/** One attempt's limit: a receiver should answer at once and do its work afterwards. */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/** One POST as the sender makes it. */
export interface WebhookPost {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/**
 * Sends one POST and answers the status, without following redirects. Rejects with an Error when
 * no answer came; an error with `retryable: false` (an address the deployment may not reach) ends
 * the delivery at once. Node fills it with a public-address-only client, a Worker with `fetch`.
 */
export type WebhookSender = (post: WebhookPost) => Promise<{ status: number }>;

export interface DeliveryOptions {
  send: WebhookSender;
  secret: string;
  /** Waits between attempts; its length + 1 is the number of attempts. Default DEFAULT_RETRY_DELAYS_MS. */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Called after every attempt (to record it); its failures are ignored. */
  onAttempt?: (attempt: WebhookAttempt) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Delivers one event: signs it afresh for every attempt (a retry minutes later is still inside the
 * receiver's tolerance), retries 5xx answers, timeouts and network errors with the backoff above,
 * and stops at once on 2xx, on any 4xx (the receiver refused it; sending again would not help) and
 * on a 3xx (redirects are not followed: one could lead into a private network). Never rejects;
 * answers every attempt made.
 */
export async function deliverWebhook(url: string, event: WebhookEvent, options: DeliveryOptions): Promise<WebhookAttempt[]> {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepFor;
  const body = JSON.stringify(event);
  const attempts: WebhookAttempt[] = [];
  for (let index = 0; index <= delays.length; index++) {
    const started = now();
    let status: number | null = null;
    let error: string | undefined;
    let retryable = true;
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Seekframe-Webhooks/1',
        [SIGNATURE_HEADER]: await signWebhook({ body, secret: options.secret, timestamp: Math.floor(started / 1000) }),
        [WEBHOOK_ID_HEADER]: event.id,
        [WEBHOOK_EVENT_HEADER]: event.type,
      };
      ({ status } = await options.send({ url, body, headers, timeoutMs: options.timeoutMs ?? DEFAULT_DELIVERY_TIMEOUT_MS }));
      if (status >= 300 && status < 400) {
        error = `the receiver answered HTTP ${status} (a redirect); deliveries do not follow redirects, so give the final URL`;
        retryable = false;
      } else if (status >= 400 && status < 500) {
        error = `the receiver answered HTTP ${status}`;
        retryable = false;
      } else if (status >= 500 || status < 200) {
        error = `the receiver answered HTTP ${status}`;
      }
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
      retryable = (thrown as { retryable?: unknown }).retryable !== false;
    }
    const ok = error === undefined;
    const willRetry = !ok && retryable && index < delays.length;
    const attempt: WebhookAttempt = {
      eventId: event.id,
      event: event.type,
      attempt: index + 1,
      at: new Date(started).toISOString(),
      status,
      ok,
      durationMs: Math.max(0, now() - started),
      ...(error ? { error } : {}),
      willRetry,
    };
    attempts.push(attempt);
    try {
      options.onAttempt?.(attempt);
    } catch {
      // recording is best effort; the delivery goes on
    }
    if (!willRetry) break;
    await sleep(delays[index]!);
  }
  return attempts;
}
