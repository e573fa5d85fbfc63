// The Vercel build step after `next build`: creates the sandbox snapshot this deployment's renders
// restore from (pinned image, ffmpeg + fonts + Chromium + the installed Seekframe CLI, one smoke
// render of the composition), and records it in Blob at snapshot-cache/<VERCEL_DEPLOYMENT_ID>.json.
// Run: npx tsx scripts/create-snapshot.ts (vercel.json does). SEEKFRAME_SANDBOX=local makes the
// snapshot with local sandboxes instead (tests, a dry run on a laptop).
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  BlobStorage,
  compositionFolder,
  createSnapshot,
  createVercelSandboxProvider,
  localRecipe,
  LocalSandboxProvider,
  packInstalledCli,
  sandboxCredentialsFromEnv,
  vercelRecipe,
  vercelSettings,
} from '@seekframe/vercel-sandbox';
import { renderApiSettings } from '@seekframe/render-api';
import { previewCompositionDir } from '../lib/preview';

const env = process.env;
// The seekframe CLI this project installed (in the Seekframe monorepo: the workspace package).
const cliBin = path.join(path.dirname(createRequire(import.meta.url).resolve('seekframe/package.json')), 'bin/seekframe.js');

async function main(): Promise<number> {
  // The render API's settings, checked at build time as the functions will read them: a blank
  // RENDER_API_TOKEN or a malformed limit fails the deployment instead of every request.
  renderApiSettings({}, env);
  const deploymentId = env.VERCEL_DEPLOYMENT_ID?.trim();
  if (!deploymentId) {
    console.log('seekframe: VERCEL_DEPLOYMENT_ID is not set (not a Vercel build): no snapshot made; renders will set up a fresh sandbox.');
    return 0;
  }
  // Everything the template's functions read (Blob token and access, sandbox, limits).
  const settings = vercelSettings({ SEEKFRAME_CLI_BIN: cliBin, ...env });
  const provider = settings.local
    ? new LocalSandboxProvider(path.join(settings.localSandboxDir ?? path.join(process.cwd(), '.seekframe'), 'local-sandboxes'))
    : createVercelSandboxProvider(sandboxCredentialsFromEnv(env));
  const recipe = settings.local
    ? localRecipe({ cliBin: settings.cliBin ?? cliBin })
    : vercelRecipe(() => packInstalledCli(import.meta.dirname));
  const composition = compositionFolder(previewCompositionDir(env));
  await createSnapshot({
    provider,
    recipe,
    storage: new BlobStorage({ token: settings.blobToken, access: settings.blobAccess }),
    deploymentId,
    compositionFiles: () => composition.files(),
  });
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`seekframe: the snapshot step failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
