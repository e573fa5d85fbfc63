import type { CompositionFiles } from '@seekframe/producer/composition-files';
import type { WebhookSender } from '@seekframe/producer/webhooks';
import type { CompositionSource, JobStore, ObjectStore, PreviewAssets, RenderRunner } from './ports.js';
import type { JobLifecycleEvent } from './job-lifecycle.js';
import type { RenderJobRequest, StartJobInput } from './render-job.js';

/**
 * How `POST /api/render` answers without `Prefer: respond-async`:
 * - `sync` (sandbox, container templates): waits until the file is stored, then 200
 *   `{url, key, durationMs}`.
 * - `call-id` (function template): 200 `{call_id}` at once; poll `GET /api/render/<call_id>`.
 * - `async` (the AWS Lambda API, whose function cannot wait for a render that runs on other
 *   functions): 202 `{id, statusUrl}` at once, always, as `Prefer: respond-async` answers
 *   elsewhere; poll `GET /api/render/<id>`.
 */
export type AnswerMode = 'sync' | 'call-id' | 'async';

export interface RenderApiLimits {
  /** Request body bytes (413 `body-too-large`). Default 2 MiB. */
  maxBodyBytes: number;
  /** Frames of one render (duration x fps), refused with 400 `limit-exceeded`. Default 18000. */
  maxFrames: number;
  /** Pixels of one frame (width x height), refused with 400 `limit-exceeded`. Default 3840x2160. */
  maxPixels: number;
  /** Wall time of one render; the runner cancels it past this (`render-timeout`). Default 900. */
  maxRenderSeconds: number;
  /** Custom `html` bytes (part of the body). Default 1 MiB. */
  maxHtmlBytes: number;
  /**
   * Memory of one render's browsers together, in MB (`seekframe render --max-memory`); over it the
   * render stops with `memory-limit-exceeded`. Unset: the CLI's default, 1536 MB per browser.
   */
  maxMemoryMB?: number;
  /**
   * Bytes of `variables` as JSON, refused with 413 `variables-too-large` (the Lambda API: 256 KiB,
   * since variables travel inside the render's records). Unset: only `maxBodyBytes` bounds them.
   */
  maxVariablesBytes?: number;
}

/**
 * Signed webhooks (`webhook` in the body): the secret deliveries are signed with, how they are
 * sent, and the address rule a webhook URL must pass at POST. Without a secret a body with a
 * `webhook` is refused (400 `webhook-secret-missing`).
 */
export interface RenderApiWebhooks {
  /** `RENDER_WEBHOOK_SECRET`. */
  secret?: string;
  /**
   * Posts one delivery (Node: `createPublicWebhookSender`). Absent: this API only checks the
   * webhook at POST and the platform that runs the job sends its events (the Cloudflare job's
   * Durable Object, which sees the whole life cycle).
   */
  send?: WebhookSender;
  /** Throws (a sentence) when the URL's host may not be reached: loopback, private, link-local. */
  checkUrl: (url: string) => Promise<void>;
  /** Waits between attempts (default 1, 4, 16, 64 s: five attempts). */
  retryDelaysMs?: readonly number[];
  /** One attempt's limit; default 10 s. */
  timeoutMs?: number;
  /** Least time between two `render.progress` events; default 5 s. */
  progressIntervalMs?: number;
  /** How often the API asks a detached runner about a render with a webhook; default 2 s. */
  followIntervalMs?: number;
}

export interface RenderApiOptions {
  runner: RenderRunner;
  jobs: JobStore;
  objects: ObjectStore;
  /** The template's composition; `index.html` is its entry. */
  composition: CompositionSource;
  /** The preview page's script and the player bundle. Without it `GET /` answers 404. */
  previewAssets?: PreviewAssets;
  /**
   * The composition's files for the player, by the rule the render uses
   * (@seekframe/producer/composition-files, mounted at `/preview/composition/`): on Node
   * `nodeCompositionFiles(dir)` from `@seekframe/render-api/node`; where there is no
   * `node_modules` at run time, the files the template's build prepared. Without it
   * `/preview/composition/*` answers 404.
   */
  compositionFiles?: CompositionFiles;
  answerMode: AnswerMode;
  /**
   * Where the settings below that have an environment variable are read from when not given
   * here (RENDER_API_TOKEN, ALLOW_CUSTOM_HTML, RENDER_MAX_*, RENDER_RETENTION_SECONDS,
   * RENDER_WEBHOOK_SECRET): default the process environment (`process.env`; none in a runtime
   * without one). An option given here wins over its variable; a variable set but unusable
   * (blank, malformed) refuses to build the API (`invalid-server-options`). Pass `{}` to read
   * nothing from the environment. See renderApiSettings.
   */
  env?: Record<string, string | undefined>;
  /** Bearer token (`RENDER_API_TOKEN`); when set every route but the preview page needs it. */
  token?: string;
  /** `ALLOW_CUSTOM_HTML=true`: accept `html` in the body (else 403 `custom-html-disabled`). */
  allowCustomHtml?: boolean;
  /**
   * Accept `still` in the body (a PNG of one frame instead of a video). Default true; false where
   * the runner cannot make one (the Lambda API and `seekframe serve --queue`: their chunks join videos), then 400 `invalid-body`.
   */
  allowStills?: boolean;
  limits?: Partial<RenderApiLimits>;
  /** Queued + running jobs at once before 429 + Retry-After (needs `jobs.countActive`). Default 2. */
  maxConcurrentRenders?: number;
  /** How long a job and its output stay fetchable; then 410 `render-expired`. Default 24 h. */
  retentionSeconds?: number;
  /** Lets background work outlive the response (Workers `ctx.waitUntil`, Next `after()`). In
   *  Node, omit it: the promise simply runs on. */
  waitUntil?: (promise: Promise<unknown>) => void;
  /** `GET /renders/:name` serves `renders/<name>` from the object store (the function template's
   *  volume route). Default: true in `call-id` mode. */
  serveRendersRoute?: boolean;
  /** Longest wait of a `sync` POST before it answers 202 `{id, statusUrl}` instead. Default 840 s. */
  syncTimeoutMs?: number;
  /** Signed webhooks; without it (or without its secret) a `webhook` in the body is refused. */
  webhooks?: RenderApiWebhooks;
  /**
   * Hears every change of a job's life once the job store holds it: `started`, `progress` (as
   * throttled as the store's writes), `completed`, `failed`, `cancelled` (webhooks, logs). A
   * listener that throws or rejects never breaks a render; pass slow work to `waitUntil`.
   */
  onEvent?: (event: JobLifecycleEvent) => void | Promise<void>;
  /** Job ids; default `crypto.randomUUID()`. Given the checked request (the Lambda API makes the
   *  id of an Idempotency-Key from the key, so a stateless function finds it again). */
  newId?: (input: StartJobInput) => string;
  /** The object key a job's output is stored under; default `renders/<id>.<format>`. */
  outputKey?: (id: string, request: RenderJobRequest) => string;
  /** Clock for tests. */
  now?: () => Date;
  /** The OpenAPI document's title (the Lambda API names itself); default "Seekframe render API". */
  title?: string;
}

export const DEFAULT_LIMITS: RenderApiLimits = {
  maxBodyBytes: 2 * 1024 * 1024,
  maxFrames: 18_000,
  maxPixels: 3840 * 2160,
  maxRenderSeconds: 900,
  maxHtmlBytes: 1024 * 1024,
};

/** The webhook settings a template reads from its environment; it builds `webhooks` from them with its own sender. */
export interface WebhookSettings {
  /** `RENDER_WEBHOOK_SECRET`: signs every delivery; unset = webhooks refused at POST. */
  webhookSecret?: string;
  /**
   * `RENDER_WEBHOOK_ALLOW_LOOPBACK=true`: deliveries may go to 127.0.0.1/::1 (a receiver on the
   * same machine). For local testing only; private and link-local ranges stay refused.
   */
  webhookAllowLoopback: boolean;
}
