import {
  buildWebhookEvent,
  deliverWebhook,
  DEFAULT_PROGRESS_INTERVAL_MS,
  type WebhookAttempt,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookSender,
} from '@seekframe/producer/webhooks';
import { getJson, listKeys, putJson, renderKeys } from '@seekframe/producer/distributed';
import { urlOf, type LambdaStore } from '../storage/lambda-store.js';
import type { ChunkProgress, PlanProgress, StoredRequest } from '../progress/progress-records.js';

/** Signed webhooks on Lambda: the deployment's secret and how deliveries are sent. */
export interface LambdaWebhooks {
  /** `RENDER_WEBHOOK_SECRET` (every Seekframe function gets it). */
  secret: string;
  send: WebhookSender;
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Least time between two `render.progress` events; default 5 s. */
  progressIntervalMs?: number;
}

/** `webhooks/<name>.json`: one event of a render and every attempt to deliver it. */
export interface WebhookRecord {
  eventId: string;
  event: WebhookEventType;
  attempts: WebhookAttempt[];
}

export const webhookKeys = (renderId: string) => {
  const root = `${renderKeys(renderId).root}webhooks/`;
  return { prefix: root, record: (name: string) => `${root}${name}.json` };
};

interface Deps {
  store: LambdaStore;
  webhooks?: LambdaWebhooks | undefined;
  now?: () => number;
}

/**
 * Sends one life-cycle event of a render (the step handlers call it: plan -> started, a finished
 * chunk -> progress, assemble -> completed, the fail step -> failed). Exactly one invocation
 * sends each event: it first claims `webhooks/<name>.json` with If-None-Match (a retried or
 * duplicated step finds it claimed), then delivers with the retries of `deliverWebhook`, rewriting
 * the record after each attempt (`GET /api/render/:id` lists them). Progress is claimed per
 * interval (`progress-<n>`), so parallel chunks send at most one per interval, with one attempt.
 * Never throws: a webhook never fails a render. `data` is computed only by the claimant.
 */
export async function sendRenderEvent<T extends WebhookEventType>(
  deps: Deps,
  renderId: string,
  type: T,
  data: () => Promise<WebhookEventData<T>> | WebhookEventData<T>,
): Promise<void> {
  const webhooks = deps.webhooks;
  if (!webhooks) return;
  try {
    const request = await getJson<StoredRequest>(deps.store, renderKeys(renderId).request);
    const webhook = request?.request.webhook;
    if (!webhook) return;
    const now = deps.now ?? Date.now;
    const interval = webhooks.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
    const name = type === 'render.progress' ? `progress-${Math.floor(now() / Math.max(1, interval))}` : type;
    const key = webhookKeys(renderId).record(name);
    const eventId = `evt_${crypto.randomUUID().replace(/-/g, '')}`;
    const record: WebhookRecord = { eventId, event: type, attempts: [] };
    const { created } = await putJson(deps.store, key, record, { ifNoneMatch: '*' });
    if (!created) return;
    const event = buildWebhookEvent(
      { renderId, customData: webhook.customData, type, data: await data() },
      { now, newEventId: () => eventId },
    );
    let writes: Promise<unknown> = Promise.resolve();
    await deliverWebhook(webhook.url, event, {
      send: webhooks.send,
      secret: webhooks.secret,
      now,
      ...(type === 'render.progress' ? { retryDelaysMs: [] } : webhooks.retryDelaysMs ? { retryDelaysMs: webhooks.retryDelaysMs } : {}),
      ...(webhooks.timeoutMs !== undefined ? { timeoutMs: webhooks.timeoutMs } : {}),
      onAttempt: (attempt) => {
        record.attempts.push(attempt);
        const snapshot = { ...record, attempts: [...record.attempts] };
        writes = writes.then(() => putJson(deps.store, key, snapshot)).catch(() => undefined);
      },
    });
    await writes;
  } catch {
    // Reading the request or claiming the record failed: the render goes on without this event.
  }
}

/** Every delivery attempt of a render, oldest first (for `GET /api/render/:id`). */
export async function readWebhookAttempts(store: LambdaStore, renderId: string): Promise<WebhookAttempt[]> {
  const keys = await listKeys(store, webhookKeys(renderId).prefix);
  const records = await Promise.all(keys.map((key) => getJson<WebhookRecord>(store, key)));
  return records.flatMap((record) => record?.attempts ?? []).sort((a, b) => a.at.localeCompare(b.at) || a.attempt - b.attempt);
}

/** `render.progress` data from the progress objects all chunks wrote so far. */
export async function renderProgressData(store: LambdaStore, renderId: string): Promise<WebhookEventData<'render.progress'>> {
  const keys = renderKeys(renderId);
  const [plan, progressKeys] = await Promise.all([getJson<PlanProgress>(store, keys.planProgress), listKeys(store, keys.progressPrefix)]);
  const chunks = await Promise.all(
    progressKeys.filter((key) => /\/progress\/\d{5}\.json$/.test(key)).map((key) => getJson<ChunkProgress>(store, key)),
  );
  const framesRendered = chunks.reduce((sum, c) => sum + (c ? Math.min(c.framesRendered, c.frames) : 0), 0);
  const totalFrames = plan?.totalFrames ?? null;
  // The same scale as GET /api/render/:id: plan 0-0.05, frames 0.05-0.9, assembly 0.9-1.
  const progress = totalFrames ? 0.05 + 0.85 * Math.min(1, framesRendered / totalFrames) : 0.05;
  return { progress: Math.round(progress * 1000) / 1000, stage: 'render', framesRendered, totalFrames };
}

/** `render.completed` data: a presigned URL of the output (valid as long as the store's URLs, an hour by default; GET /api/render/:id gives a fresh one). */
export async function completedData(
  deps: Deps,
  renderId: string,
  output: { key: string; size: number; frames: number },
  finishedAt: string,
): Promise<WebhookEventData<'render.completed'>> {
  const request = await getJson<StoredRequest>(deps.store, renderKeys(renderId).request);
  const durationMs = request ? Math.max(0, Date.parse(finishedAt) - Date.parse(request.createdAt)) : null;
  return { url: await urlOf(deps.store, output.key), size: output.size, durationMs, frames: output.frames };
}
