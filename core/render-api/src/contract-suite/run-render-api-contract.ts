import { afterAll, beforeAll, describe } from 'vitest';
import type { AnswerMode } from '../render-api-options.js';
import { within } from './local-server.js';
import { defineRouteContract } from './contract-routes.js';
import { defineRenderContract } from './contract-render.js';
import { defineSettingsContract } from './contract-settings.js';
import { definePreviewBrowserContract } from './contract-preview-browser.js';
import { defineWebhookContract } from './contract-webhooks.js';

/** A deployment's cold start on a busy machine (a template's server, a container, a Worker). */
const TARGET_STARTS_MS = 110_000;
/** Its stop, with the renders it still runs. */
const TARGET_STOPS_MS = 90_000;

/** Whether the deployment has `capability` (on unless `without` names it). */
export function has(options: RenderApiContractOptions, capability: ContractCapability): boolean {
  return options.without?.[capability] === undefined;
}

/** A running deployment under test, on 127.0.0.1. */
export interface ContractTarget {
  baseUrl: string;
  stop(): Promise<void>;
}

/** What a group of tests needs the deployment to be started with (all unset = the defaults). */
export interface ContractSettings {
  /** RENDER_API_TOKEN */
  token?: string;
  /** ALLOW_CUSTOM_HTML=true */
  allowCustomHtml?: boolean;
  /** RENDER_MAX_CONCURRENT */
  maxConcurrentRenders?: number;
  /** RENDER_MAX_FRAMES */
  maxFrames?: number;
  /** RENDER_RETENTION_SECONDS */
  retentionSeconds?: number;
  /** RENDER_MAX_MEMORY_MB */
  maxMemoryMB?: number;
  /** RENDER_WEBHOOK_SECRET */
  webhookSecret?: string;
  /** RENDER_WEBHOOK_ALLOW_LOOPBACK=true (deliveries to a receiver on 127.0.0.1, for tests) */
  webhookAllowLoopback?: boolean;
}

/**
 * A group's settings as the environment variables every template reads (RENDER_API_TOKEN,
 * ALLOW_CUSTOM_HTML, RENDER_MAX_*): what `start` passes to a template started as a process.
 */
export function contractSettingsEnv(settings: ContractSettings): Record<string, string> {
  return {
    ...(settings.token ? { RENDER_API_TOKEN: settings.token } : {}),
    ...(settings.allowCustomHtml ? { ALLOW_CUSTOM_HTML: 'true' } : {}),
    ...(settings.maxConcurrentRenders ? { RENDER_MAX_CONCURRENT: String(settings.maxConcurrentRenders) } : {}),
    ...(settings.maxFrames ? { RENDER_MAX_FRAMES: String(settings.maxFrames) } : {}),
    ...(settings.maxMemoryMB ? { RENDER_MAX_MEMORY_MB: String(settings.maxMemoryMB) } : {}),
    ...(settings.retentionSeconds ? { RENDER_RETENTION_SECONDS: String(settings.retentionSeconds) } : {}),
    ...(settings.webhookSecret ? { RENDER_WEBHOOK_SECRET: settings.webhookSecret } : {}),
    ...(settings.webhookAllowLoopback ? { RENDER_WEBHOOK_ALLOW_LOOPBACK: 'true' } : {}),
  };
}

/**
 * What a deployment offers that the suite checks, each on unless the deployment says it has not
 * got it, and why (`without: { previewPage: 'why' }`): a group of checks for a capability it has
 * not got is not defined (its reason is in the suite's name), and where the absence itself is
 * observable the suite checks that instead (no preview: 404 on `/` and `/preview/*`).
 */
export type ContractCapability =
  /** `GET /` is the preview page (its assets under /preview/, the player in headless Chromium). */
  | 'previewPage'
  /** ALLOW_CUSTOM_HTML=true lets a body carry `html`. */
  | 'customHtml'
  /** RENDER_MAX_CONCURRENT caps the renders at once (429 too-many-renders past it). */
  | 'maxConcurrentRenders'
  /** RENDER_MAX_MEMORY_MB bounds a render's browsers (memory-limit-exceeded). */
  | 'maxMemory'
  /** RENDER_RETENTION_SECONDS expires a render (410 render-expired). */
  | 'retentionSeconds'
  /** `still` in the body renders one frame as a PNG (without it: 400 invalid-body naming still). */
  | 'stills';

export interface RenderApiContractOptions {
  /** Names the describe block, e.g. "modal-function (python)". */
  name: string;
  answerMode: AnswerMode;
  /**
   * Starts the deployment serving the contract composition (`contractCompositionDir()` from
   * `@seekframe/render-api/node`: 160x90, 1 s, 10 fps, variables `title` (string, maxLength 24)
   * and `size` (number 10-60)) with the given settings, on 127.0.0.1. Called once per group.
   */
  start(settings: ContractSettings): Promise<ContractTarget>;
  /** Skip the headless Chromium preview checks (only for a stand-in without the page). */
  skipBrowser?: boolean;
  /** The capabilities this deployment has not got, each with the reason (see ContractCapability). */
  without?: Partial<Record<ContractCapability, string>>;
  /**
   * The deployment offers signed webhooks (RENDER_WEBHOOK_SECRET, RENDER_WEBHOOK_ALLOW_LOOPBACK):
   * run the webhook checks. Leave unset for a deployment that cannot deliver them yet.
   */
  webhooks?: boolean;
}

/** Starts a target for the enclosing describe block; `base()` is its URL. */
export function useTarget(options: RenderApiContractOptions, settings: ContractSettings): () => string {
  let target: ContractTarget | undefined;
  beforeAll(async () => {
    target = await within(options.start(settings), TARGET_STARTS_MS, `the deployment to start (${JSON.stringify(settings)})`);
  }, TARGET_STARTS_MS + 10_000);
  afterAll(async () => {
    await within(target?.stop() ?? Promise.resolve(), TARGET_STOPS_MS, 'the deployment to stop');
  }, TARGET_STOPS_MS + 10_000);
  return () => {
    if (!target) throw new Error('the contract target did not start');
    return target.baseUrl;
  };
}

/**
 * The render API contract (DESIGN.md section 7, docs/contributing/architecture.md, "render-api") as vitest
 * blocks over real HTTP: every route and error code, idempotency, auth, limits, capacity,
 * cancel, Range, a real render checked with ffprobe, and the preview page in headless Chromium.
 * Call it at the top level of a test file.
 */
export function runRenderApiContract(options: RenderApiContractOptions): void {
  // The reasons are beside the options where the deployment's test calls this.
  const without = Object.keys(options.without ?? {});
  describe(`render API contract: ${options.name}${without.length ? `, without ${without.join(', ')}` : ''}`, () => {
    defineRouteContract(options);
    defineRenderContract(options);
    defineSettingsContract(options);
    if (options.webhooks) defineWebhookContract(options);
    if (!options.skipBrowser && has(options, 'previewPage')) definePreviewBrowserContract(options);
  });
}
