import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { runCommand, type CommandResult } from '../../src/run-command.js';
import { userEnv } from './user-env.js';
import { outsideContext, type OutsideContext } from './outside-context.js';

export interface UserShell {
  context: OutsideContext;
  /** A fresh folder below the run's work folder. */
  folder(name: string): Promise<string>;
  /** Runs a command as a user would, npm pointed at the local registry; rejects on a non-zero exit. */
  run(
    file: string,
    args: readonly string[],
    options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
  ): Promise<CommandResult>;
  /** The environment `run` uses (for spawning long-running processes). */
  env(extra?: Record<string, string | undefined>): NodeJS.ProcessEnv;
}

/** The user's side of the tests: npm and npx with the local registry as their only registry (once the global setup has it ready). */
export async function userShell(): Promise<UserShell> {
  const context = await outsideContext();
  const env = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => userEnv(context, extra);
  return {
    context,
    async folder(name) {
      const dir = path.join(context.root, 'work', name);
      await mkdir(dir, { recursive: true });
      return dir;
    },
    run(file, args, options) {
      return runCommand(file, args, { cwd: options.cwd, env: env(options.env), timeout: options.timeoutMs ?? 600_000 });
    },
    env,
  };
}

/** Runs one step of a flow and logs how long it took (the report reads these lines). */
export async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    console.log(`outside: ${name} ${(Math.round((performance.now() - started) / 100) / 10).toFixed(1)} s`);
  }
}
