import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CliCommand } from '../node/create-local-runner.js';
import { packageDir } from '../node/package-dir.js';
import { REPO_ROOT } from './repo-root.js';

/**
 * The Seekframe CLI of this checkout, run from its TypeScript sources through tsx (so a stale
 * build never answers a test), found by its path in the repository: this package does not
 * depend on the `seekframe` package. For tests and reference renders in the monorepo only; a
 * deployed host passes its installed CLI (`seekframe/bin-path`).
 */
export function checkoutCli(): CliCommand {
  const launcher = path.join(REPO_ROOT, 'core', 'cli', 'scripts', 'run-from-source.mjs');
  // tsx resolved here: the child runs in a temp folder, where a bare `--import tsx` finds nothing.
  const tsx = pathToFileURL(path.join(packageDir('tsx'), 'dist', 'loader.mjs')).href;
  return { command: process.execPath, args: ['--import', tsx, '--conditions=source', launcher] };
}
