import { SeekframeError } from '@seekframe/composition';
import { processEnv, renderApiSettings, type RenderApiSettings, type RenderApiSettingsOverrides } from '@seekframe/render-api';

/** Everything the Vercel template reads from its environment, checked once. */
export interface VercelSettings {
  /** The render API's shared settings (RENDER_API_TOKEN, RENDER_MAX_*, RENDER_WEBHOOK_*...). */
  api: RenderApiSettings;
  /** `BLOB_READ_WRITE_TOKEN` (required). */
  blobToken: string;
  /** `BLOB_ACCESS`: `public` (default) or `private`. */
  blobAccess: 'public' | 'private';
  /** `VERCEL_BLOB_API_URL` (a local Blob stand-in). */
  blobApiUrl?: string;
  /** `SEEKFRAME_SANDBOX=local`: renders in local child processes instead of Vercel Sandboxes. */
  local: boolean;
  /** `SEEKFRAME_CLI_BIN`, required with `SEEKFRAME_SANDBOX=local`. */
  cliBin?: string;
  /** `SEEKFRAME_LOCAL_SANDBOX_DIR`. */
  localSandboxDir?: string;
  /** `SANDBOX_VCPUS`, default 4. */
  vcpus: number;
  /** `RENDER_SYNC_TIMEOUT_MS`, default 270000. */
  syncTimeoutMs: number;
  /** `VERCEL_DEPLOYMENT_ID` (set by Vercel). */
  deploymentId?: string;
}

const refuse = (variable: string, message: string): SeekframeError =>
  new SeekframeError('invalid-server-options', message, { stage: 'config', details: { variable } });

/** A variable's trimmed value; set but blank is refused (never read as unset). */
function read(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw refuse(name, `${name} is set but blank; set a value or remove the variable.`);
  return raw.trim();
}

function count(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw refuse(name, `${name} must be a whole number of at least 1 (got "${raw}"); fix or unset it.`);
  return Number(raw);
}

/**
 * The Vercel template's settings: read from `env` (default the process environment) with the
 * render API's own settings overridden field by field by `overrides`. A setting set but unusable
 * (blank, malformed: `BLOB_ACCESS=privat` would store renders publicly) throws
 * `invalid-server-options` naming it. The build step checks the same (scripts/create-snapshot.ts),
 * so a bad setting fails the deployment before any request.
 */
export function vercelSettings(
  env: Record<string, string | undefined> = processEnv(),
  overrides: RenderApiSettingsOverrides = {},
): VercelSettings {
  const api = renderApiSettings(overrides, env);
  const blobToken = read(env, 'BLOB_READ_WRITE_TOKEN');
  if (!blobToken) {
    throw refuse(
      'BLOB_READ_WRITE_TOKEN',
      'BLOB_READ_WRITE_TOKEN is not set: connect a Blob store to this project (Storage -> Blob) or run `vercel env pull` for a local run.',
    );
  }
  const access = read(env, 'BLOB_ACCESS') ?? 'public';
  if (access !== 'public' && access !== 'private')
    throw refuse('BLOB_ACCESS', `BLOB_ACCESS must be "public" or "private" (got "${access}"); fix or unset it.`);
  const sandbox = read(env, 'SEEKFRAME_SANDBOX');
  if (sandbox !== undefined && sandbox !== 'local' && sandbox !== 'vercel')
    throw refuse('SEEKFRAME_SANDBOX', `SEEKFRAME_SANDBOX must be "local" or "vercel" (got "${sandbox}"); fix or unset it.`);
  const local = sandbox === 'local';
  const cliBin = read(env, 'SEEKFRAME_CLI_BIN');
  if (local && !cliBin)
    throw refuse(
      'SEEKFRAME_CLI_BIN',
      'SEEKFRAME_SANDBOX=local needs SEEKFRAME_CLI_BIN: the path of the seekframe CLI (bin/seekframe.js of the installed seekframe package; npm run dev sets it).',
    );
  const blobApiUrl = read(env, 'VERCEL_BLOB_API_URL');
  const localSandboxDir = read(env, 'SEEKFRAME_LOCAL_SANDBOX_DIR');
  const deploymentId = read(env, 'VERCEL_DEPLOYMENT_ID');
  return {
    api,
    blobToken,
    blobAccess: access,
    ...(blobApiUrl ? { blobApiUrl } : {}),
    local,
    ...(cliBin ? { cliBin } : {}),
    ...(localSandboxDir ? { localSandboxDir } : {}),
    vcpus: count(env, 'SANDBOX_VCPUS', 4),
    syncTimeoutMs: count(env, 'RENDER_SYNC_TIMEOUT_MS', 270_000),
    ...(deploymentId ? { deploymentId } : {}),
  };
}
