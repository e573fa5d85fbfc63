import path from 'node:path';
import { cleanEnv } from '../../src/run-command.js';
import type { OutsideContext } from './outside-context.js';

/** The environment of the user's commands: npm and npx with the local registry as their only registry. */
export function userEnv(
  context: Pick<OutsideContext, 'root' | 'userconfig'>,
  extra: Record<string, string | undefined> = {},
): NodeJS.ProcessEnv {
  return cleanEnv({
    npm_config_userconfig: context.userconfig,
    // A cache of this run's own, as on a new machine: npx would otherwise reuse a package it
    // installed in an earlier run under the same version (the versions do not change between runs).
    npm_config_cache: path.join(context.root, 'npm-cache'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_loglevel: 'error',
    // `npm create` / `npx <package>` ask before installing; a user answers yes.
    npm_config_yes: 'true',
    NO_COLOR: '1',
    ...extra,
  });
}
