import os from 'node:os';
import path from 'node:path';
import { isIP } from 'node:net';
import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';
import { SERVER_SETTINGS } from './server-settings.js';
import {
  RENDER_LIMIT_SETTINGS,
  RenderLimitsSchema,
  SERVER_RENDER_LIMITS,
  type RenderLimitName,
  type ServerRenderLimits,
} from '../plan/render-limits.js';

export const DEFAULT_PORT = 9847;
export const DEFAULT_MAX_CONCURRENT_RENDERS = 2;
export const DEFAULT_MAX_QUEUED_RENDERS = 100;
/** How long a finished render's job answers `GET /render/:id` (then 410). */
export const DEFAULT_JOB_RETENTION_SECONDS = 3600;

/** Flags and environment variables arrive as strings: "3" counts, "two" or "2.5" does not. */
const WholeNumber = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
  z.number({ error: 'must be a whole number' }).int('must be a whole number'),
);

export const ProducerServerOptionsSchema = z.object({
  /** 0 picks a free port (tests). */
  port: WholeNumber.pipe(z.number().min(0, 'must be 0-65535').max(65535, 'must be 0-65535')).default(DEFAULT_PORT),
  host: z.string().min(1).default('127.0.0.1'),
  /** Folder that `projectDir` in request bodies is relative to; nothing outside it renders. */
  root: z.string().min(1).optional(),
  /** 1-10; default from PRODUCER_MAX_CONCURRENT_RENDERS, else 2. */
  maxConcurrentRenders: WholeNumber.pipe(z.number().min(1, 'must be 1-10').max(10, 'must be 1-10')).optional(),
  /** Renders waiting at most (0-10000); one more gets 429 too-many-renders. Default PRODUCER_MAX_QUEUED_RENDERS, else 100. */
  maxQueuedRenders: WholeNumber.pipe(z.number().min(0, 'must be 0-10000').max(10_000, 'must be 0-10000')).optional(),
  /** Seconds a finished job is kept for `GET /render/:id` (0-604800). Default PRODUCER_JOB_RETENTION_SECONDS, else 3600. */
  jobRetentionSeconds: WholeNumber.pipe(z.number().min(0, 'must be 0-604800').max(604_800, 'must be 0-604800 (a week)')).optional(),
  /** Bearer token every route requires; default PRODUCER_AUTH_TOKEN. */
  authToken: z.string().min(1, 'must not be empty').optional(),
  /** Where finished files live, addressed by token. Default `<root>/.seekframe/outputs`. */
  outputsDir: z.string().min(1).optional(),
  /** Largest request body in bytes (default 2 MiB). */
  maxBodyBytes: z
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  /** Largest inline `html` composition in bytes (default 1 MiB). */
  maxHtmlBytes: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /** Per-render limits; each one unset here comes from its PRODUCER_MAX_* variable, else SERVER_RENDER_LIMITS. */
  limits: z.record(z.string(), z.unknown()).optional(),
  /** Longest wait for a page to load/get ready and for one seek (default 30 s); PRODUCER_PAGE_TIMEOUT_MS. */
  pageTimeoutMs: WholeNumber.pipe(z.number().min(1, 'must be at least 1')).optional(),
  /** Warm browsers kept between renders (0-32; 0 = every render launches its own). Default PRODUCER_WARM_BROWSERS, else 2 per concurrent render. */
  warmBrowsers: WholeNumber.pipe(z.number().min(0, 'must be 0-32').max(32, 'must be 0-32')).optional(),
  /** Seconds an unused warm browser stays open (1-86400). Default PRODUCER_BROWSER_IDLE_SECONDS, else 60. */
  browserIdleSeconds: WholeNumber.pipe(z.number().min(1, 'must be 1-86400').max(86_400, 'must be 1-86400')).optional(),
  /** Environment to read PRODUCER_* from (default process.env). */
  env: z
    .custom<NodeJS.ProcessEnv>((value) => typeof value === 'object' && value !== null, 'must be an object of environment variables')
    .optional(),
});

export type ProducerServerOptionsInput = z.input<typeof ProducerServerOptionsSchema>;

export interface ProducerServerConfig {
  port: number;
  host: string;
  root: string;
  maxConcurrentRenders: number;
  maxQueuedRenders: number;
  jobRetentionSeconds: number;
  authToken: string | undefined;
  outputsDir: string;
  maxBodyBytes: number;
  maxHtmlBytes: number;
  /** Every server render runs under these (see render-limits.ts); no maxMemoryMB = the default per browser. */
  limits: ServerRenderLimits;
  pageTimeoutMs: number;
  /** Browsers the warm pool keeps (0 = no pool) and how long an idle one stays open. */
  warmBrowsers: number;
  browserIdleSeconds: number;
}

/** Settings that fall back to a PRODUCER_* variable (server-settings.ts), named by it in errors when it was the source. */
const ENV_NAMES: Record<string, string> = Object.fromEntries(
  SERVER_SETTINGS.filter((setting) => setting.env?.startsWith('PRODUCER_')).map((setting) => [setting.option, setting.env!]),
);

/**
 * Options + environment -> the server's settings (`fieldName` lets the CLI name its flags). Anything out of range is a start-up error that
 * names the flag or variable, so a typo never silently runs with a default.
 */
export function resolveServerConfig(
  input: ProducerServerOptionsInput,
  fieldName: (field: string) => string = (field) => field,
): ProducerServerConfig {
  const env = input.env ?? process.env;
  // Each setting not given falls back to its variable; a variable set but blank is refused here,
  // naming it (never read as unset: a blank PRODUCER_AUTH_TOKEN would turn authentication off).
  const fallback = (field: keyof ProducerServerOptionsInput, variable: string): Record<string, string> => {
    if (input[field] !== undefined) return {};
    const raw = readVariable(env, variable);
    return raw === undefined ? {} : { [field]: raw };
  };
  const fromVariables = Object.fromEntries(
    Object.entries(ENV_NAMES).flatMap(([field, variable]) => Object.entries(fallback(field as keyof ProducerServerOptionsInput, variable))),
  );
  const result = ProducerServerOptionsSchema.safeParse({ ...input, ...fromVariables });
  if (!result.success) {
    const message = result.error.issues
      .map((issue) => {
        const field = issue.path.join('.');
        const fromVariable = ENV_NAMES[field] !== undefined && (input as Record<string, unknown>)[field] === undefined;
        const name = fromVariable ? ENV_NAMES[field]! : fieldName(field);
        return `${name} ${issue.message}`;
      })
      .join('; ');
    throw new SeekframeError('invalid-server-options', `The producer server cannot start: ${message}.`, {
      stage: 'config',
      details: { problems: result.error.issues.map((i) => i.path.join('.')) },
    });
  }
  const options = result.data;
  if (options.authToken !== undefined && options.authToken.trim() === '') {
    throw new SeekframeError(
      'invalid-server-options',
      `The producer server cannot start: ${fieldName('authToken')} is only whitespace, which would let anyone in; set a real secret (e.g. \`openssl rand -base64 24\`) or leave it unset on a loopback host.`,
      {
        stage: 'config',
        details: { problems: ['authToken'] },
      },
    );
  }
  const limits = resolveLimits(options.limits ?? {}, env, fieldName);
  const root = path.resolve(options.root ?? '.');
  if (!isLoopback(options.host) && !options.authToken) {
    throw new SeekframeError(
      'insecure-host',
      `The producer server will not listen on ${options.host} without authentication: anyone on that network could render. ` +
        'Set PRODUCER_AUTH_TOKEN (clients then send "Authorization: Bearer <token>"), or keep the default host 127.0.0.1.',
      { stage: 'config', details: { host: options.host } },
    );
  }
  return {
    port: options.port,
    host: options.host,
    root,
    maxConcurrentRenders: options.maxConcurrentRenders ?? DEFAULT_MAX_CONCURRENT_RENDERS,
    maxQueuedRenders: options.maxQueuedRenders ?? DEFAULT_MAX_QUEUED_RENDERS,
    jobRetentionSeconds: options.jobRetentionSeconds ?? DEFAULT_JOB_RETENTION_SECONDS,
    authToken: options.authToken,
    outputsDir: path.resolve(root, options.outputsDir ?? path.join('.seekframe', 'outputs')),
    maxBodyBytes: options.maxBodyBytes,
    maxHtmlBytes: options.maxHtmlBytes,
    limits,
    pageTimeoutMs: options.pageTimeoutMs ?? 30_000,
    warmBrowsers: options.warmBrowsers ?? Math.min(32, 2 * (options.maxConcurrentRenders ?? DEFAULT_MAX_CONCURRENT_RENDERS)),
    browserIdleSeconds: options.browserIdleSeconds ?? 60,
  };
}

/**
 * Each limit: the option (flag), else its PRODUCER_MAX_* variable, else the server default. The
 * producer server and a fleet worker (`seekframe worker`, the same limits as `serve`) read them
 * so; a value that is set but unusable stops the start, naming the flag or variable.
 */
export function resolveLimits(
  given: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  fieldName: (field: string) => string,
  who = 'The producer server',
): ProducerServerConfig['limits'] {
  const names = Object.keys(RENDER_LIMIT_SETTINGS) as RenderLimitName[];
  const fromEnv = (name: RenderLimitName): boolean =>
    given[name] === undefined && readVariable(env, RENDER_LIMIT_SETTINGS[name].env) !== undefined;
  const merged = Object.fromEntries(
    names.map((name) => [
      name,
      given[name] ?? (fromEnv(name) ? readVariable(env, RENDER_LIMIT_SETTINGS[name].env) : SERVER_RENDER_LIMITS[name]),
    ]),
  );
  const result = RenderLimitsSchema.safeParse(merged);
  if (!result.success) {
    const message = result.error.issues
      .map((issue) => {
        const name = issue.path[0] as RenderLimitName;
        return `${fromEnv(name) ? RENDER_LIMIT_SETTINGS[name]?.env : fieldName(`limits.${String(name)}`)} ${issue.message}`;
      })
      .join('; ');
    throw new SeekframeError('invalid-server-options', `${who} cannot start: ${message}.`, {
      stage: 'config',
      details: { problems: result.error.issues.map((i) => `limits.${i.path.join('.')}`) },
    });
  }
  return result.data as ProducerServerConfig['limits'];
}

/**
 * A PRODUCER_* variable: undefined when unset; set but blank (empty or spaces) refuses the start,
 * naming it, as every face treats a setting that is present but unusable.
 */
function readVariable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  if (raw.trim() === '') {
    const fix =
      name === 'PRODUCER_AUTH_TOKEN'
        ? 'set it to a real secret (e.g. `openssl rand -base64 24`), or remove the variable to run without authentication on a loopback host'
        : 'set a value or remove the variable to use the default';
    throw new SeekframeError('invalid-server-options', `The producer server cannot start: ${name} is set but blank; ${fix}.`, {
      stage: 'config',
      details: { variable: name },
    });
  }
  return raw.trim();
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** Temp folders for inline `html` compositions. */
/** With the server's pid in the name, so a later render can sweep what a killed server left. */
export const INLINE_PROJECT_PREFIX = path.join(os.tmpdir(), `seekframe-inline-${process.pid}-`);
