import { execFile, type ExecFileOptions } from 'node:child_process';

export interface CommandResult {
  stdout: string;
  stderr: string;
}

export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stdout: string,
    readonly stderr: string,
  ) {
    const tail = (stderr.trim() || stdout.trim()).split('\n').slice(-15).join('\n');
    super(`\`${command}\` failed (exit code ${exitCode ?? 'none'}):\n${tail}`);
  }
}

/**
 * The environment a command sees: this process's, without the `npm_*` variables that `npm run`
 * and `npx` export (a child npm would otherwise inherit the outer run's registry, prefix or
 * workspace settings instead of its own folder's).
 */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD') env[key] = value;
  }
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs a program (no shell), resolves with its output, rejects with a CommandError naming it. */
export function runCommand(
  file: string,
  args: readonly string[],
  options: ExecFileOptions & { env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  const shown = [file, ...args].join(' ');
  return new Promise((resolve, reject) => {
    execFile(file, args, { maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', env: cleanEnv(), ...options }, (error, stdout, stderr) => {
      const out = String(stdout);
      const err = String(stderr);
      if (error) {
        const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : null;
        reject(new CommandError(shown, code, out, err));
      } else {
        resolve({ stdout: out, stderr: err });
      }
    });
  });
}
