import type { SandboxLike, SandboxRunParams } from '../sandbox-port.js';

export interface SetupStep {
  /** Shown in logs and errors, e.g. "install ffmpeg and fonts". */
  title: string;
  cmd: string;
  args: string[];
  sudo?: boolean;
  env?: Record<string, string>;
  cwd?: string;
}

export interface FinishedRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one command detached (the only mode the port has), forwards its output to `log` as it
 * comes, and returns when it ends. Detached + streamed is also how the render runs, so a hung
 * set-up step shows its last lines instead of nothing.
 */
export async function runToEnd(
  sandbox: SandboxLike,
  step: Omit<SetupStep, 'title'>,
  options: { log?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<FinishedRun> {
  const params: SandboxRunParams = { cmd: step.cmd, args: step.args, detached: true };
  if (step.sudo) params.sudo = true;
  if (step.env) params.env = step.env;
  if (step.cwd) params.cwd = step.cwd;
  if (options.signal) params.signal = options.signal;
  const command = await sandbox.runCommand(params);
  if (options.log) {
    const log = options.log;
    let pending = '';
    for await (const chunk of command.logs(options.signal ? { signal: options.signal } : undefined)) {
      pending += chunk.data;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) log(line);
    }
    if (pending.trim()) log(pending);
  }
  const done = await command.wait(options.signal ? { signal: options.signal } : undefined);
  return { exitCode: done.exitCode, stdout: await done.stdout(), stderr: await done.stderr() };
}

/** The last lines of a command's output, for an error message. */
export function tail(text: string, lines = 12): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}
