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
} from '@seekframe/vercel-sandbox';
import { previewCompositionDir } from '../lib/preview';

const env = process.env;
// The seekframe CLI this project installed (in the Seekframe monorepo: the workspace package).
const cliBin = path.join(path.dirname(createRequire(import.meta.url).resolve('seekframe/package.json')), 'bin/seekframe.js');

async function main(): Promise<number> {
  const deploymentId = env.VERCEL_DEPLOYMENT_ID?.trim();
  if (!deploymentId) {
    console.log('seekframe: VERCEL_DEPLOYMENT_ID is not set (not a Vercel build): no snapshot made; renders will set up a fresh sandbox.');
    return 0;
  }
  const token = env.BLOB_READ_WRITE_TOKEN?.trim();
  if (!token) {
    console.error('seekframe: BLOB_READ_WRITE_TOKEN is not set: connect a Blob store to this project (Storage -> Blob), then redeploy.');
    return 1;
  }
  const local = env.SEEKFRAME_SANDBOX?.trim() === 'local';
  const provider = local
    ? new LocalSandboxProvider(
        path.join(env.SEEKFRAME_LOCAL_SANDBOX_DIR?.trim() || path.join(process.cwd(), '.seekframe'), 'local-sandboxes'),
      )
    : createVercelSandboxProvider(sandboxCredentialsFromEnv(env));
  const recipe = local
    ? localRecipe({ cliBin: env.SEEKFRAME_CLI_BIN?.trim() || cliBin })
    : vercelRecipe(() => packInstalledCli(import.meta.dirname));
  const composition = compositionFolder(previewCompositionDir(env));
  await createSnapshot({
    provider,
    recipe,
    storage: new BlobStorage({ token, access: env.BLOB_ACCESS?.trim() === 'private' ? 'private' : 'public' }),
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
