import type { SeekframeErrorData } from '@seekframe/composition';
import { deliverWebhook, type DeliveryOptions, type WebhookAttempt } from './deliver-webhook.js';
import {
  buildWebhookEvent,
  failedData,
  type WebhookCompletedData,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookProgressData,
} from './webhook-events.js';
import type { WebhookRequest } from './webhook-request.js';

/** Least time between two `render.progress` deliveries of one render. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 5_000;

/**
 * What a render's life cycle tells its webhook. The job code calls these as things happen; each
 * returns at once (deliveries run behind it and never throw into the render).
 */
export interface RenderLifecycleListener {
  started(): void;
  progress(data: WebhookProgressData): void;
  completed(data: WebhookCompletedData): void;
  failed(error: SeekframeErrorData): void;
  /** Resolves once every event so far is delivered or given up (a Lambda handler awaits it before returning). */
  settled(): Promise<void>;
}

export interface WebhookNotifierOptions extends Omit<DeliveryOptions, 'onAttempt'> {
  renderId: string;
  webhook: WebhookRequest;
  /** Gets every attempt so far (all events), after each attempt: the job record keeps them. */
  record?: (attempts: WebhookAttempt[]) => void | Promise<void>;
  /** Attempts made before this notifier (another process sent `render.started`), kept in the list. */
  previous?: WebhookAttempt[];
  progressIntervalMs?: number;
  newEventId?: () => string;
}

/**
 * One render's webhook: events are delivered one after another in the order they happened
 * (`render.started` first, the final event last), `render.progress` at most once per interval and
 * with a single attempt (the next one supersedes it), the others with retries. After the final
 * event nothing more is sent.
 */
export function createWebhookNotifier(options: WebhookNotifierOptions): RenderLifecycleListener {
  const now = options.now ?? Date.now;
  const attempts: WebhookAttempt[] = [...(options.previous ?? [])];
  let chain: Promise<void> = Promise.resolve();
  // Records are written one after another, so an older list never lands after a newer one.
  let recording: Promise<void> = Promise.resolve();
  let started = attempts.some((a) => a.event === 'render.started');
  let finished = attempts.some((a) => a.event === 'render.completed' || a.event === 'render.failed');
  let lastProgress = Number.NEGATIVE_INFINITY;

  const enqueue = <T extends WebhookEventType>(type: T, data: WebhookEventData<T>): void => {
    const event = buildWebhookEvent(
      { renderId: options.renderId, customData: options.webhook.customData, type, data },
      { now, ...(options.newEventId ? { newEventId: options.newEventId } : {}) },
    );
    const retryDelaysMs = type === 'render.progress' ? [] : options.retryDelaysMs;
    chain = chain
      .then(() =>
        deliverWebhook(options.webhook.url, event, {
          ...options,
          ...(retryDelaysMs ? { retryDelaysMs } : {}),
          onAttempt: (attempt) => {
            attempts.push(attempt);
            const snapshot = [...attempts];
            recording = recording.then(() => options.record?.(snapshot)).catch(() => undefined);
          },
        }),
      )
      .then(
        () => undefined,
        () => undefined,
      );
  };
  const ensureStarted = (): void => {
    if (started) return;
    started = true;
    enqueue('render.started', {});
  };

  return {
    started() {
      if (!finished) ensureStarted();
    },
    progress(data) {
      if (finished) return;
      ensureStarted();
      if (now() - lastProgress < (options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS)) return;
      lastProgress = now();
      enqueue('render.progress', data);
    },
    completed(data) {
      if (finished) return;
      ensureStarted();
      finished = true;
      enqueue('render.completed', data);
    },
    failed(error) {
      if (finished) return;
      finished = true;
      enqueue('render.failed', failedData(error));
    },
    settled: async () => {
      await chain;
      await recording;
    },
  };
}
