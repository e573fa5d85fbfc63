import { SeekframeError } from '@seekframe/composition';
import type { RenderApiLimits, WebhookSettings } from './render-api-options.js';

/** The settings every render API face reads the same way, by the same environment variable names. */
export interface RenderApiSettings extends WebhookSettings {
  /** `RENDER_API_TOKEN`: unset = no token (the API is open). */
  token?: string;
  /** `ALLOW_CUSTOM_HTML=true`. */
  allowCustomHtml: boolean;
  /** `RENDER_MAX_FRAMES`, `RENDER_MAX_SECONDS`, `RENDER_MAX_MEMORY_MB`. */
  limits: Partial<RenderApiLimits>;
  /** `RENDER_MAX_CONCURRENT`. */
  maxConcurrentRenders?: number;
  /** `RENDER_RETENTION_SECONDS`. */
  retentionSeconds?: number;
}

/** Settings given in code; each one given wins over its environment variable. */
export type RenderApiSettingsOverrides = Partial<Omit<RenderApiSettings, 'limits'>> & { limits?: Partial<RenderApiLimits> | undefined };

/** The settings a render API's options give (each wins over its variable). */
export function settingsGivenIn(options: {
  token?: string | undefined;
  allowCustomHtml?: boolean | undefined;
  limits?: Partial<RenderApiLimits> | undefined;
  maxConcurrentRenders?: number | undefined;
  retentionSeconds?: number | undefined;
  webhooks?: { secret?: string | undefined } | undefined;
}): RenderApiSettingsOverrides {
  return {
    token: options.token,
    allowCustomHtml: options.allowCustomHtml,
    limits: options.limits,
    maxConcurrentRenders: options.maxConcurrentRenders,
    retentionSeconds: options.retentionSeconds,
    webhookSecret: options.webhooks?.secret,
  };
}

/**
 * The process environment where the runtime has one (Node; a Worker with `nodejs_compat`), else
 * an empty one. Read through globalThis so this module loads where `process` does not exist.
 */
export function processEnv(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

function refuse(variable: string, message: string): SeekframeError {
  return new SeekframeError('invalid-server-options', message, { stage: 'config', details: { variable } });
}

/** Set (present) but blank, or only spaces: never read as unset, which could turn a protection off. */
function present(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw refuse(name, blankMessage(name, `${name} is set but blank`));
  return raw.trim();
}

/** What a blank secret would do, and what removing the variable means instead. */
const SECRETS: Record<string, { danger: string; without: string }> = {
  RENDER_API_TOKEN: { danger: 'which would leave this render API open to anyone', without: 'run without a token' },
  RENDER_WEBHOOK_SECRET: { danger: 'and deliveries signed with an empty key prove nothing', without: 'turn webhooks off' },
};

function blankMessage(name: string, what: string): string {
  const secret = SECRETS[name];
  if (secret)
    return `${what}, ${secret.danger}; set it to a real secret (e.g. \`openssl rand -hex 32\`), or remove the variable to ${secret.without}.`;
  return `${what}; set a value or remove the variable to use the default.`;
}

function wholeNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < 1)
    throw refuse(name, `${name} must be a whole number of at least 1 (got "${raw}"); fix or unset it.`);
  return value;
}

/** RENDER_MAX_MEMORY_MB: the render refuses less (MIN_MEMORY_MB in the producer), so the start says so, not the first render. */
function memoryMB(raw: string | undefined): number | undefined {
  const value = wholeNumber('RENDER_MAX_MEMORY_MB', raw);
  if (value !== undefined && value < 256)
    throw refuse(
      'RENDER_MAX_MEMORY_MB',
      `RENDER_MAX_MEMORY_MB must be at least 256 (MB) (got "${raw}"): a browser cannot open a page in less; fix or unset it.`,
    );
  return value;
}

function flag(name: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const value = raw.toLowerCase();
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw refuse(name, `${name} must be "true" or "false" (got "${raw}"); fix or unset it.`);
}

function secret(name: string, given: string | undefined, option: string): string | undefined {
  if (given === undefined) return undefined;
  if (given.trim() === '') throw refuse(name, blankMessage(name, `The ${option} option (${name}) was given but blank`));
  return given.trim();
}

/**
 * The settings of a render API face, read once: each from its option in `overrides` when given,
 * else from its environment variable (default the process environment), else its default. A
 * variable or option that is set but unusable (blank, malformed, out of range) throws
 * `invalid-server-options` naming it and the fix, so a face refuses to start rather than run
 * with a protection quietly off. Every face (serveLocal, createRenderApi, the Vercel, Cloudflare
 * and Lambda APIs) builds its settings here; the Modal app mirrors it in Python
 * (apps/modal-function/src/template_settings.py).
 */
export function renderApiSettings(
  overrides: RenderApiSettingsOverrides = {},
  env: Record<string, string | undefined> = processEnv(),
): RenderApiSettings {
  const fromEnv = {
    token: present(env, 'RENDER_API_TOKEN'),
    allowCustomHtml: flag('ALLOW_CUSTOM_HTML', present(env, 'ALLOW_CUSTOM_HTML')),
    maxFrames: wholeNumber('RENDER_MAX_FRAMES', present(env, 'RENDER_MAX_FRAMES')),
    maxRenderSeconds: wholeNumber('RENDER_MAX_SECONDS', present(env, 'RENDER_MAX_SECONDS')),
    maxMemoryMB: memoryMB(present(env, 'RENDER_MAX_MEMORY_MB')),
    maxConcurrentRenders: wholeNumber('RENDER_MAX_CONCURRENT', present(env, 'RENDER_MAX_CONCURRENT')),
    retentionSeconds: wholeNumber('RENDER_RETENTION_SECONDS', present(env, 'RENDER_RETENTION_SECONDS')),
    webhookSecret: present(env, 'RENDER_WEBHOOK_SECRET'),
    webhookAllowLoopback: flag('RENDER_WEBHOOK_ALLOW_LOOPBACK', present(env, 'RENDER_WEBHOOK_ALLOW_LOOPBACK')),
  };
  const token = secret('RENDER_API_TOKEN', overrides.token, 'token') ?? fromEnv.token;
  const webhookSecret = secret('RENDER_WEBHOOK_SECRET', overrides.webhookSecret, 'webhookSecret') ?? fromEnv.webhookSecret;
  const limits: Partial<RenderApiLimits> = {
    ...(fromEnv.maxFrames !== undefined ? { maxFrames: fromEnv.maxFrames } : {}),
    ...(fromEnv.maxRenderSeconds !== undefined ? { maxRenderSeconds: fromEnv.maxRenderSeconds } : {}),
    ...(fromEnv.maxMemoryMB !== undefined ? { maxMemoryMB: fromEnv.maxMemoryMB } : {}),
    ...definedOnly(overrides.limits ?? {}),
  };
  const maxConcurrentRenders = overrides.maxConcurrentRenders ?? fromEnv.maxConcurrentRenders;
  const retentionSeconds = overrides.retentionSeconds ?? fromEnv.retentionSeconds;
  return {
    ...(token ? { token } : {}),
    allowCustomHtml: overrides.allowCustomHtml ?? fromEnv.allowCustomHtml ?? false,
    limits,
    ...(maxConcurrentRenders !== undefined ? { maxConcurrentRenders } : {}),
    ...(retentionSeconds !== undefined ? { retentionSeconds } : {}),
    ...(webhookSecret ? { webhookSecret } : {}),
    webhookAllowLoopback: overrides.webhookAllowLoopback ?? fromEnv.webhookAllowLoopback ?? false,
  };
}

/** The environment's settings alone (`renderApiSettings({}, env)`); kept for callers of earlier releases. */
export function renderApiSettingsFromEnv(env: Record<string, string | undefined> = processEnv()): RenderApiSettings {
  return renderApiSettings({}, env);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
