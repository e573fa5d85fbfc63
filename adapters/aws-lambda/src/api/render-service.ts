import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lambdaError } from '../errors.js';
import { aggregateProgress, type DistributedProgress } from '../progress/aggregate-progress.js';
import type { Pricing } from '../progress/cost.js';
import { putJson as writeJson } from '../storage/object-store.js';
import type { AssembleProgress, AttemptError, ChunkProgress, FinalStatus, PlanProgress, RenderRequestBody, StoredRequest } from '../progress/progress-records.js';
import { packProject } from '../project/project-archive.js';
import { isRenderId, newRenderId, renderKeys } from '../storage/layout.js';
import { getJson, putJson, type ObjectStore } from '../storage/object-store.js';
import { bodyHash } from './render-body.js';
import { checkWebhookRequest, type WebhookGate } from '@seekframe/producer/webhooks';
import { readWebhookAttempts } from '../webhooks/render-webhook-events.js';

/** What starting and reading a render needs (the API function, the local runner, tests). */
export interface RenderService {
  store: ObjectStore;
  /** Starts the workflow for a render (Step Functions StartExecution, or the local runner). Idempotent per id. */
  startWorkflow(renderId: string): Promise<void>;
  /** Stops it (Step Functions StopExecution); absent where a render cannot be stopped. */
  stopWorkflow?(renderId: string): Promise<void>;
  chunking: StoredRequest['chunking'];
  chunkTimeoutSeconds: number;
  /** A project folder to render when the request brings none (the deployment's composition). */
  defaultProjectDir?: string;
  pricing?: Pricing;
  /** Signed webhooks: the secret (RENDER_WEBHOOK_SECRET) and the address check of a webhook URL at POST. */
  webhooks?: WebhookGate;
  /** Seconds a presigned output URL stays valid (default 1 h). */
  urlExpirySeconds?: number;
  now?: () => number;
}

export interface StartedRender {
  id: string;
  status: 'queued';
  /** False when this id was already started with the same request (idempotent repeat). */
  created: boolean;
}

/**
 * Records the request (If-None-Match, so the same id with another body is a conflict and the
 * same body is the same render), makes sure the project is in the bucket, starts the workflow.
 */
export async function startRender(service: RenderService, input: { id?: string; body: RenderRequestBody }): Promise<StartedRender> {
  const now = service.now ?? Date.now;
  const id = input.id ?? newRenderId(now());
  if (!isRenderId(id)) throw lambdaError('invalid-body', `"${id}" is not a render id: use 8-64 lowercase letters, digits and dashes.`);
  const keys = renderKeys(id);
  const hash = bodyHash(input.body);
  // Refused before anything is stored: no secret to sign with, or an address it may not reach.
  if (input.body.webhook) await checkWebhookRequest(input.body.webhook, service.webhooks);
  if (!(await service.store.head(keys.project))) {
    if (!service.defaultProjectDir) {
      throw lambdaError('invalid-body', `No project for render ${id}: upload it to ${keys.project} first (renderOnLambda does), or deploy the API with a composition.`);
    }
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-pack-'));
    try {
      const archive = path.join(dir, 'project.tar.gz');
      await packProject(service.defaultProjectDir, archive);
      await service.store.putFile(keys.project, archive, 'application/gzip');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const stored: StoredRequest = { id, createdAt: new Date(now()).toISOString(), bodyHash: hash, request: input.body, chunking: service.chunking, chunkTimeoutSeconds: service.chunkTimeoutSeconds };
  const { created } = await putJson(service.store, keys.request, stored, { ifNoneMatch: '*' });
  if (!created) {
    const existing = await getJson<StoredRequest>(service.store, keys.request);
    if (existing && existing.bodyHash !== hash) {
      throw lambdaError('idempotency-conflict', `Render ${id} was already started with a different request. Use a new id (or Idempotency-Key) for a different render.`, { details: { id } });
    }
  }
  await service.startWorkflow(id);
  return { id, status: 'queued', created };
}

/** Progress, errors and cost of a render from its objects; 404 render-not-found when unknown. */
export async function readRenderProgress(service: RenderService, id: string): Promise<DistributedProgress> {
  if (!isRenderId(id)) throw lambdaError('render-not-found', `There is no render "${id}".`);
  const keys = renderKeys(id);
  const request = await getJson<StoredRequest>(service.store, keys.request);
  if (!request) throw lambdaError('render-not-found', `There is no render ${id} (it never started, or its objects expired).`);
  const [plan, assemble, status, progressKeys, errorKeys] = await Promise.all([
    getJson<PlanProgress>(service.store, keys.planProgress),
    getJson<AssembleProgress>(service.store, keys.assembleProgress),
    getJson<FinalStatus>(service.store, keys.status),
    service.store.list(keys.progressPrefix),
    service.store.list(keys.errorsPrefix),
  ]);
  const chunkKeys = progressKeys.filter((key) => /\/progress\/\d{5}\.json$/.test(key));
  const chunks = (await Promise.all(chunkKeys.map((key) => getJson<ChunkProgress>(service.store, key)))).filter((c): c is ChunkProgress => c !== null);
  const errors = (await Promise.all(errorKeys.map((key) => getJson<AttemptError>(service.store, key)))).filter((e): e is AttemptError => e !== null);
  const progress = aggregateProgress({ request, plan, chunks, assemble, errors, status, now: (service.now ?? Date.now)(), ...(service.pricing ? { pricing: service.pricing } : {}) });
  if (progress.output) progress.output.url = await service.store.presign(progress.output.key, service.urlExpirySeconds ?? 3600);
  if (request.request.webhook) progress.webhook = { url: request.request.webhook.url, attempts: await readWebhookAttempts(service.store, id) };
  return progress;
}

/**
 * Cancels a running render: stops the workflow, then records `cancelled` in status.json (a
 * finished render answers 409 render-not-running; one that cannot be stopped here, 409 too).
 */
export async function cancelRender(service: RenderService, id: string): Promise<{ id: string; status: 'cancelled' }> {
  const progress = await readRenderProgress(service, id);
  if (progress.status !== 'running' && progress.status !== 'queued') {
    throw lambdaError('render-not-running', `Render ${id} is already ${progress.status}; only a running render can be cancelled.`, { details: { status: progress.status } });
  }
  if (!service.stopWorkflow) throw lambdaError('render-not-running', `This deployment cannot stop render ${id}.`);
  await service.stopWorkflow(id);
  const status: FinalStatus = { status: 'cancelled', finishedAt: new Date((service.now ?? Date.now)()).toISOString() };
  await writeJson(service.store, renderKeys(id).status, status);
  return { id, status: 'cancelled' };
}
