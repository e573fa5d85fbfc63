import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { createRenderApi, renderApiSettingsFromEnv, type PreviewAssets, type RenderApiOptions } from '@seekframe/render-api';
import { nodeCompositionFiles, nodeWebhooks } from '@seekframe/render-api/node';
import { createBlobJobStore } from './blob/blob-job-store.js';
import { createBlobObjectStore } from './blob/blob-object-store.js';
import { BlobStorage } from './blob/blob-storage.js';
import { compositionFolder, packagedPreviewAssets } from './files/folder-files.js';
import { LocalSandboxProvider } from './local/local-sandbox.js';
import { blobSandboxRegistry } from './runner/blob-sandbox-registry.js';
import { createSandboxRunner } from './runner/sandbox-runner.js';
import type { SandboxProvider } from './sandbox-port.js';
import { localRecipe, vercelRecipe, type CliPackage, type SandboxRecipe } from './sandbox/sandbox-recipe.js';
import { readSnapshotPointer } from './snapshot/snapshot-pointer.js';
import { sandboxCredentialsFromEnv } from './vercel/vercel-credentials.js';
import { createVercelSandboxProvider } from './vercel/vercel-sandbox-provider.js';

export interface VercelRenderApiOptions {
  /** process.env (read once here; nothing below reads the environment itself). */
  env: Record<string, string | undefined>;
  /** Absolute path of the composition folder (lib/preview.ts resolves PREVIEW_COMPOSITION_DIR). */
  compositionDir: string;
  /** Default: the built page script and player from the installed packages. */
  previewAssets?: PreviewAssets;
  /** Next's `after()`: async renders outlive the response (up to the function's maxDuration). */
  waitUntil?: RenderApiOptions['waitUntil'];
  /** For the no-snapshot fallback outside Vercel: the CLI tarballs of this checkout. */
  cliPackages?: () => Promise<CliPackage[]>;
  log?: (line: string) => void;
}

/**
 * The whole template behind the Next route handlers: the shared render API (adapters/render-api)
 * with jobs and files in Vercel Blob and renders in Vercel Sandboxes.
 * SEEKFRAME_SANDBOX=local swaps the sandboxes for child processes on this machine (local runs,
 * tests); everything else stays the same code.
 */
export function createVercelRenderApi(options: VercelRenderApiOptions) {
  const { env } = options;
  const token = env.BLOB_READ_WRITE_TOKEN?.trim();
  if (!token) {
    throw new SeekframeError(
      'invalid-server-options',
      'BLOB_READ_WRITE_TOKEN is not set: connect a Blob store to this project (Storage -> Blob) or run `vercel env pull` for a local run.',
      { stage: 'config', details: { variable: 'BLOB_READ_WRITE_TOKEN' } },
    );
  }
  const access = env.BLOB_ACCESS?.trim() === 'private' ? 'private' : 'public';
  const log = options.log ?? ((line: string) => console.log(line));
  const local = env.SEEKFRAME_SANDBOX?.trim() === 'local';

  let provider: SandboxProvider;
  let recipe: SandboxRecipe;
  if (local) {
    const cliBin = env.SEEKFRAME_CLI_BIN?.trim();
    if (!cliBin)
      throw new SeekframeError(
        'invalid-server-options',
        'SEEKFRAME_SANDBOX=local needs SEEKFRAME_CLI_BIN: the path of the seekframe CLI (bin/seekframe.js of the installed seekframe package; npm run dev sets it).',
        { stage: 'config' },
      );
    provider = new LocalSandboxProvider(
      path.join(env.SEEKFRAME_LOCAL_SANDBOX_DIR?.trim() || path.join(process.cwd(), '.seekframe'), 'local-sandboxes'),
    );
    recipe = localRecipe({ cliBin });
  } else {
    provider = createVercelSandboxProvider(sandboxCredentialsFromEnv(env));
    recipe = vercelRecipe(
      options.cliPackages ??
        (async () => {
          throw new SeekframeError(
            'render-failed',
            'This deployment has no sandbox snapshot and no Seekframe packages to set one up: redeploy so the build step (apps/vercel-sandbox/scripts/create-snapshot.ts) makes the snapshot.',
            { stage: 'config', retryable: false },
          );
        }),
    );
  }

  const composition = compositionFolder(options.compositionDir);
  const storage = new BlobStorage({ token, access });
  const { webhookSecret, webhookAllowLoopback, ...settings } = renderApiSettingsFromEnv(env);
  // Signed webhooks from this Node function: public addresses only, as for remote media.
  const webhooks = nodeWebhooks({ ...(webhookSecret ? { webhookSecret } : {}), webhookAllowLoopback });
  const vcpus = Number(env.SANDBOX_VCPUS?.trim() || 4);
  const runner = createSandboxRunner({
    provider,
    recipe,
    lookupSnapshot: () => readSnapshotPointer(storage, env.VERCEL_DEPLOYMENT_ID?.trim() || undefined),
    compositionFiles: () => composition.files(),
    blob: { token, access, ...(env.VERCEL_BLOB_API_URL?.trim() ? { apiUrl: env.VERCEL_BLOB_API_URL.trim() } : {}) },
    registry: blobSandboxRegistry(storage),
    findOutput: async (key) => {
      const info = await storage.head(key);
      return info ? { url: access === 'private' ? null : info.url, size: info.size, contentType: info.contentType } : null;
    },
    shape: { vcpus: Number.isInteger(vcpus) && vcpus > 0 ? vcpus : 4 },
    ...(settings.maxConcurrentRenders !== undefined ? { maxConcurrent: settings.maxConcurrentRenders } : {}),
    log,
  });

  return createRenderApi({
    ...settings,
    runner,
    // A render's marker counts until its job ends, or until it is older than the longest render.
    jobs: createBlobJobStore({ token, access, staleAfterMs: ((settings.limits?.maxRenderSeconds ?? 900) + 600) * 1000 }),
    objects: createBlobObjectStore({ token, access }),
    composition,
    previewAssets: options.previewAssets ?? packagedPreviewAssets(),
    // The preview's files by the render's own rule, read from this function's node_modules
    // (next.config.mjs traces the @fontsource packages and gsap into the deployment), confined to
    // the folder like every template's files.
    compositionFiles: nodeCompositionFiles(options.compositionDir),
    answerMode: 'sync',
    // A sync POST waits inside one function call: answer 202 with a status URL before Vercel's
    // 300 s limit ends the call (the render goes on through waitUntil).
    syncTimeoutMs: Number(env.RENDER_SYNC_TIMEOUT_MS?.trim() || 270_000),
    ...(options.waitUntil ? { waitUntil: options.waitUntil } : {}),
    ...(webhooks ? { webhooks } : {}),
  });
}
