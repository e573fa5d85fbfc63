import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageDir } from './package-dir.js';

/** How to start the Seekframe CLI: a command and the arguments before `render ...`. */
export interface CliCommand {
  command: string;
  args: string[];
}

const LAUNCHER = fileURLToPath(new URL('../../scripts/run-cli-from-source.mjs', import.meta.url));

/**
 * The CLI to run: SEEKFRAME_CLI (a path to an executable) when set; else the installed
 * `seekframe` package's built bin; with `fromSource` (or no build) its TypeScript sources
 * through tsx, so a checkout runs without `npm run build`.
 */
export function seekframeCli(options: { env?: NodeJS.ProcessEnv; fromSource?: boolean } = {}): CliCommand {
  const env = options.env ?? process.env;
  if (env.SEEKFRAME_CLI) return { command: env.SEEKFRAME_CLI, args: [] };
  const packageRoot = packageDir('seekframe');
  const bin = path.join(packageRoot, 'bin', 'seekframe.js');
  const built = existsSync(path.join(packageRoot, 'dist', 'main.js'));
  if (!options.fromSource && built) return { command: process.execPath, args: [bin] };
  // tsx resolved here: the child runs in a temp folder, where a bare `--import tsx` finds nothing.
  return { command: process.execPath, args: ['--import', pathToFileURL(path.join(packageDir('tsx'), 'dist', 'loader.mjs')).href, '--conditions=source', LAUNCHER] };
}
