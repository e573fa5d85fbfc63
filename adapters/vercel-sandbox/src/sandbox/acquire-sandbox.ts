import { SeekframeError } from '@seekframe/composition';
import type { PointerLookup } from '../snapshot/snapshot-pointer.js';
import type { SandboxLike, SandboxProvider } from '../sandbox-port.js';
import type { SandboxRecipe } from './sandbox-recipe.js';
import { runToEnd, tail } from './run-to-end.js';

export interface SandboxShape {
  vcpus: number;
  timeoutMs: number;
}

export interface AcquiredSandbox {
  sandbox: SandboxLike;
  source: 'snapshot' | 'fresh';
  /** Why a fresh sandbox was built (no pointer, snapshot gone...). */
  reason?: string;
}

/**
 * A sandbox ready to render: restored from the deployment's snapshot when the pointer exists
 * and the snapshot can be restored, else a fresh one from the pinned image set up by the recipe
 * (minutes instead of seconds, so the reason is logged).
 */
export async function acquireSandbox(options: {
  provider: SandboxProvider;
  recipe: SandboxRecipe;
  lookup: () => Promise<PointerLookup>;
  shape: SandboxShape;
  log: (line: string) => void;
  signal?: AbortSignal;
}): Promise<AcquiredSandbox> {
  const { provider, recipe, shape, log } = options;
  const lookup = await options.lookup();
  let reason: string;
  if (lookup.pointer) {
    try {
      const sandbox = await provider.createFromSnapshot({
        snapshotId: lookup.pointer.snapshotId,
        vcpus: shape.vcpus,
        timeoutMs: shape.timeoutMs,
        env: recipe.env,
      });
      return { sandbox, source: 'snapshot' };
    } catch (error) {
      reason = `snapshot ${lookup.pointer.snapshotId} could not be restored (${error instanceof Error ? error.message : String(error)})`;
    }
  } else {
    reason = lookup.reason;
  }
  log(`seekframe: building a fresh sandbox from ${recipe.image}: ${reason}`);
  const sandbox = await provider.create({ image: recipe.image, vcpus: shape.vcpus, timeoutMs: shape.timeoutMs, env: recipe.env });
  try {
    await prepareSandbox(sandbox, recipe, log, options.signal);
  } catch (error) {
    await sandbox.stop().catch(() => undefined);
    throw error;
  }
  return { sandbox, source: 'fresh', reason };
}

/** Writes the recipe's files and runs its steps in order; the first failing step stops it. */
export async function prepareSandbox(
  sandbox: SandboxLike,
  recipe: SandboxRecipe,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<void> {
  const files = await recipe.files();
  if (files.length > 0) await sandbox.writeFiles(files, signal ? { signal } : undefined);
  for (const step of recipe.steps) {
    log(`seekframe: sandbox set-up: ${step.title}`);
    const run = await runToEnd(sandbox, step, signal ? { signal } : {});
    if (run.exitCode !== 0) {
      throw new SeekframeError(
        'render-failed',
        `Sandbox set-up step "${step.title}" (${step.cmd} ${step.args.join(' ').slice(0, 120)}) exited with ${run.exitCode}:\n${tail(run.stderr || run.stdout)}\nCheck the image (${recipe.image}) and the network of the sandbox.`,
        {
          stage: 'browser',
          retryable: true,
          details: { step: step.title, exitCode: run.exitCode },
        },
      );
    }
  }
}
