import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** How to start the Seekframe CLI: a command and the arguments before `render ...`. */
export interface CliCommand {
  command: string;
  args: string[];
}

const LAUNCHER = fileURLToPath(new URL('./run-cli-from-source.mjs', import.meta.url));

/**
 * The CLI to run: SEEKFRAME_CLI (a path to an executable) when set; else the installed
 * `seekframe` package's built bin; with `fromSource` (or no build) its TypeScript sources
 * through tsx, so a checkout runs without `npm run build`.
 */
export function seekframeCli(options: { env?: NodeJS.ProcessEnv; fromSource?: boolean } = {}): CliCommand {
  const env = options.env ?? process.env;
  if (env.SEEKFRAME_CLI) return { command: env.SEEKFRAME_CLI, args: [] };
  const packageRoot = fileURLToPath(new URL('./', import.meta.resolve('seekframe')).href.replace(/\/(src|dist)\/$/, '/'));
  const bin = `${packageRoot}bin/seekframe.js`;
  const built = existsSync(`${packageRoot}dist/main.js`);
  if (!options.fromSource && built) return { command: process.execPath, args: [bin] };
  // tsx resolved here: the child runs in a temp folder, where a bare `--import tsx` finds nothing.
  return { command: process.execPath, args: ['--import', import.meta.resolve('tsx'), '--conditions=source', LAUNCHER] };
}
