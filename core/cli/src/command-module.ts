import type { Command } from 'commander';
import type { CliContext } from './cli-context.js';

/**
 * One file per command in `commands/<name>.ts` exports `register`. It adds its subcommand to
 * `program` and writes through `ctx`; on findings or failure it sets `ctx.exitCode = 1` or
 * throws a SeekframeError (printed by `reportError`).
 */
export interface CommandModule {
  register(program: Command, ctx: CliContext): void;
}
