import { main } from '../src/main.js';
import type { OutputStream } from '../src/cli-context.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function buffer(): OutputStream & { text: () => string } {
  const chunks: string[] = [];
  return { write: (chunk: string) => chunks.push(chunk), isTTY: false, text: () => chunks.join('') };
}

/** Runs `seekframe <args>` in-process with captured output (no colors: not a TTY). */
export async function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const stdout = buffer();
  const stderr = buffer();
  const code = await main(['node', 'seekframe', ...args], {
    stdout,
    stderr,
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? { PATH: process.env.PATH },
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}
