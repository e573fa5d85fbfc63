import { SeekframeError } from '@seekframe/composition';
import { parseRunnerEvent } from '@seekframe/render-api';
import type { BlobStorage } from '../blob/blob-storage.js';
import type { SandboxFile, SandboxProvider } from '../sandbox-port.js';
import { prepareSandbox } from '../sandbox/acquire-sandbox.js';
import { runToEnd, tail } from '../sandbox/run-to-end.js';
import type { SandboxRecipe } from '../sandbox/sandbox-recipe.js';
import { pointerKey, writeSnapshotPointer, type SnapshotPointer } from './snapshot-pointer.js';

export interface CreateSnapshotOptions {
  provider: SandboxProvider;
  recipe: SandboxRecipe;
  /** Where the pointer goes (`snapshot-cache/<deploymentId>.json`). */
  storage: BlobStorage;
  deploymentId: string;
  /** The composition the smoke render renders (the template's own). */
  compositionFiles: () => Promise<SandboxFile[]>;
  log?: (line: string) => void;
  /** Default 4 vCPUs, 45 minutes for the whole set-up. */
  vcpus?: number;
  timeoutMs?: number;
}

/**
 * The build step: a fresh sandbox from the pinned image, set up by the recipe, proved by one
 * smoke render of the template's composition, then snapshotted with no expiry and recorded in
 * Blob for this deployment. Every request after that starts from the snapshot in seconds.
 */
export async function createSnapshot(options: CreateSnapshotOptions): Promise<SnapshotPointer> {
  const log = options.log ?? ((line: string) => console.log(line));
  const { recipe } = options;
  log(`seekframe: creating a sandbox from ${recipe.image} for deployment ${options.deploymentId}`);
  const sandbox = await options.provider.create({
    image: recipe.image,
    vcpus: options.vcpus ?? 4,
    timeoutMs: options.timeoutMs ?? 45 * 60 * 1000,
    env: recipe.env,
  });
  let snapshotTaken = false;
  try {
    await prepareSandbox(sandbox, recipe, log);

    log('seekframe: smoke render of the composition');
    const files = await options.compositionFiles();
    await sandbox.writeFiles(files.map((file) => ({ ...file, path: `smoke/project/${file.path}` })));
    const smoke = await runToEnd(sandbox, {
      cmd: recipe.seekframe.cmd,
      args: [...recipe.seekframe.args, 'render', 'smoke/project', '--output', 'smoke/out.mp4', '--json', '--workers', 'auto'],
      env: recipe.env,
    });
    const events = smoke.stdout.split('\n').map(parseRunnerEvent);
    const complete = events.find((event) => event?.type === 'complete');
    if (smoke.exitCode !== 0 || complete?.type !== 'complete') {
      const error = events.find((event) => event?.type === 'error');
      throw new SeekframeError(
        'render-failed',
        `The smoke render in the new sandbox failed (exit ${smoke.exitCode}): ${error?.type === 'error' ? error.error.message : tail(smoke.stderr || smoke.stdout)}. No snapshot was made; fix the image set-up or the composition and deploy again.`,
        {
          stage: 'capture',
          retryable: false,
        },
      );
    }
    // The smoke output is not part of the image.
    await runToEnd(sandbox, { cmd: 'rm', args: ['-rf', 'smoke'] });

    const snapshot = await sandbox.snapshot({ expiration: 0 });
    snapshotTaken = true;
    const pointer: SnapshotPointer = {
      snapshotId: snapshot.snapshotId,
      createdAt: new Date().toISOString(),
      image: recipe.image,
      smokeRender: { durationMs: complete.durationMs, size: complete.size },
    };
    await writeSnapshotPointer(options.storage, options.deploymentId, pointer);
    log(
      `seekframe: snapshot ${pointer.snapshotId} recorded at ${pointerKey(options.deploymentId)} (smoke render ${complete.durationMs} ms)`,
    );
    return pointer;
  } finally {
    // snapshot() stops the sandbox itself; on any failure before it, stop it here.
    if (!snapshotTaken) await sandbox.stop().catch(() => undefined);
  }
}
