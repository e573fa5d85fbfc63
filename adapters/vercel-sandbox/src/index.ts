// @seekframe/vercel-sandbox: Seekframe's render API on Vercel (Sandbox runner, Blob stores).
export { createVercelRenderApi, type VercelRenderApiOptions } from './create-vercel-render-api.js';
export { vercelSettings, type VercelSettings } from './vercel-settings.js';
export {
  createSandboxRunner,
  launchJob,
  JOB_SCRIPT_URL,
  type SandboxRegistry,
  type SandboxRunnerOptions,
} from './runner/sandbox-runner.js';
export { createBlobJobStore, type BlobJobStoreOptions } from './blob/blob-job-store.js';
export { createBlobObjectStore } from './blob/blob-object-store.js';
export { BlobStorage, type BlobStorageOptions } from './blob/blob-storage.js';
export { createSnapshot, type CreateSnapshotOptions } from './snapshot/create-snapshot.js';
export {
  pointerKey,
  readSnapshotPointer,
  writeSnapshotPointer,
  type PointerLookup,
  type SnapshotPointer,
} from './snapshot/snapshot-pointer.js';
export {
  localRecipe,
  vercelRecipe,
  SANDBOX_APT_PACKAGES,
  SANDBOX_CHROMIUM_PACKAGE,
  SANDBOX_LIBRARY_PACKAGES,
  VERCEL_SANDBOX_IMAGE,
  type CliPackage,
  type SandboxRecipe,
} from './sandbox/sandbox-recipe.js';
export { createVercelSandboxProvider } from './vercel/vercel-sandbox-provider.js';
export { sandboxCredentialsFromEnv, type SandboxCredentials } from './vercel/vercel-credentials.js';
export { LocalSandboxProvider } from './local/local-sandbox.js';
export { compositionFolder, packagedPreviewAssets } from './files/folder-files.js';
export { packInstalledCli, CLI_PACKAGES } from './pack-installed-cli.js';
export type * from './sandbox-port.js';
