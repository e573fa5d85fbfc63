import { lambdaError } from '../errors.js';
import { aggregateProgress, type DistributedProgress } from '../progress/aggregate-progress.js';
import type { Pricing } from '../progress/cost.js';
import type {
  AssembleProgress,
  AttemptError,
  ChunkProgress,
  FinalStatus,
  PlanProgress,
  StoredRequest,
} from '../progress/progress-records.js';
import { getJson, isRenderId, listKeys, renderKeys } from '@seekframe/producer/distributed';
import { urlOf, type LambdaStore } from '../storage/lambda-store.js';
import { readWebhookAttempts } from '../webhooks/render-webhook-events.js';

export interface ProgressReader {
  store: LambdaStore;
  /** The cost estimate's prices (default: us-east-1's). */
  pricing?: Pricing;
  now?: () => number;
}

/**
 * Progress, errors and cost of a distributed render from the objects its steps wrote; 404
 * render-not-found when it never started. The Lambda runner's `poll` and the typed client's
 * `progress` invoke both read it.
 */
export async function readRenderProgress(reader: ProgressReader, id: string): Promise<DistributedProgress> {
  const { store } = reader;
  if (!isRenderId(id)) throw lambdaError('render-not-found', `There is no render "${id}".`);
  const keys = renderKeys(id);
  const request = await getJson<StoredRequest>(store, keys.request);
  if (!request) throw lambdaError('render-not-found', `There is no render ${id} (it never started, or its objects expired).`);
  const [plan, assemble, status, progressKeys, errorKeys] = await Promise.all([
    getJson<PlanProgress>(store, keys.planProgress),
    getJson<AssembleProgress>(store, keys.assembleProgress),
    getJson<FinalStatus>(store, keys.status),
    listKeys(store, keys.progressPrefix),
    listKeys(store, keys.errorsPrefix),
  ]);
  const chunkKeys = progressKeys.filter((key) => /\/progress\/\d{5}\.json$/.test(key));
  const chunks = (await Promise.all(chunkKeys.map((key) => getJson<ChunkProgress>(store, key)))).filter(
    (c): c is ChunkProgress => c !== null,
  );
  const errors = (await Promise.all(errorKeys.map((key) => getJson<AttemptError>(store, key)))).filter(
    (e): e is AttemptError => e !== null,
  );
  const progress = aggregateProgress({
    request,
    plan,
    chunks,
    assemble,
    errors,
    status,
    now: (reader.now ?? Date.now)(),
    ...(reader.pricing ? { pricing: reader.pricing } : {}),
  });
  if (progress.output) progress.output.url = await urlOf(store, progress.output.key);
  if (request.request.webhook) progress.webhook = { url: request.request.webhook.url, attempts: await readWebhookAttempts(store, id) };
  return progress;
}
