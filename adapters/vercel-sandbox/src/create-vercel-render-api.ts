import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import {
  createRenderApi,
  processEnv,
  type PreviewAssets,
  type RenderApiOptions,
  type RenderApiSettingsOverrides,
} from '@seekframe/render-api';
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
import { vercelSettings } from './vercel-settings.js';

export interface VercelRenderApiOptions {
  /**
   * Where the settings are read from (once, here; nothing below reads the environment itself):
   * default `process.env`. A setting set but unusable refuses to build the API (see vercelSettings).
   */
  env?: Record<string, string | undefined>;
  /** The render API's settings given in code; each wins over its environment variable. */
  settings?: RenderApiSettingsOverrides;
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
  const env = options.env ?? processEnv();
  const config = vercelSettings(env, options.settings);
  const { blobToken: token, blobAccess: access, local } = config;
  const log = options.log ?? ((line: string) => console.log(line));

  let provider: SandboxProvider;
  let recipe: SandboxRecipe;
  if (local) {
    provider = new LocalSandboxProvider(path.join(config.localSandboxDir ?? path.join(process.cwd(), '.seekframe'), 'local-sandboxes'));
    recipe = localRecipe({ cliBin: config.cliBin! });
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
  const { webhookSecret, webhookAllowLoopback, ...settings } = config.api;
  // Signed webhooks from this Node function: public addresses only, as for remote media.
  const webhooks = nodeWebhooks({ ...(webhookSecret ? { webhookSecret } : {}), webhookAllowLoopback });
  const runner = createSandboxRunner({
    provider,
    recipe,
    lookupSnapshot: () => readSnapshotPointer(storage, config.deploymentId),
    compositionFiles: () => composition.files(),
    blob: { token, access, ...(config.blobApiUrl ? { apiUrl: config.blobApiUrl } : {}) },
    registry: blobSandboxRegistry(storage),
    findOutput: async (key) => {
      const info = await storage.head(key);
      return info ? { url: access === 'private' ? null : info.url, size: info.size, contentType: info.contentType } : null;
    },
    shape: { vcpus: config.vcpus },
    ...(settings.maxConcurrentRenders !== undefined ? { maxConcurrent: settings.maxConcurrentRenders } : {}),
    log,
  });

  return createRenderApi({
    ...settings,
    // Read by the same rule again there; the settings above already are what it finds.
    env,
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
    syncTimeoutMs: config.syncTimeoutMs,
    ...(options.waitUntil ? { waitUntil: options.waitUntil } : {}),
    ...(webhooks ? { webhooks } : {}),
  });
}
