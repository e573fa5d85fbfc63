import { CommanderError } from 'commander';
import { SeekframeError, toSeekframeError } from '@seekframe/composition';
import type { CliContext } from './cli-context.js';
import { isUsageError } from './usage-error.js';

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/**
 * The one place a thrown error becomes output and an exit code. A SeekframeError prints only its
 * message (it already names the file/field and the fix); the stack is for SEEKFRAME_DEBUG=1.
 * In `--json` mode the error is JSON on stdout (`{"type":"error","error":{code,message,...}}`), so
 * scripts never parse prose.
 */
export function reportError(error: unknown, ctx: CliContext, json: boolean): number {
  if (error instanceof CommanderError) {
    const code = commanderExitCode(error);
    // commander printed its sentence on stderr; a script reading `--json` gets the coded error too.
    if (json && code !== EXIT_OK) ctx.printJsonLine({ type: 'error', error: commanderError(error).toJSON() });
    return code;
  }
  const exitCode = isUsageError(error) ? EXIT_USAGE : EXIT_FAILURE;
  const known = error instanceof SeekframeError;
  const data = toSeekframeError(error, { code: 'internal-error' });
  if (json) {
    // One line shaped like the progress stream's error event, so it reads as the JSON document of
    // `lint --json` and as the last line of `render --json` alike.
    ctx.printJsonLine({ type: 'error', error: data.toJSON() });
  } else {
    ctx.note(`${ctx.colors.red(ctx.colors.bold('error'))} ${data.message}`);
    if (!known && !debug(ctx))
      ctx.note(ctx.colors.dim('This looks like a bug in seekframe; run again with SEEKFRAME_DEBUG=1 to see the stack.'));
  }
  if (debug(ctx) && error instanceof Error && error.stack) ctx.note(error.stack);
  return exitCode;
}

function debug(ctx: CliContext): boolean {
  return ctx.env.SEEKFRAME_DEBUG === '1';
}

/** commander already printed its message; we only translate its outcome to our exit codes. */
function commanderExitCode(error: CommanderError): number {
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT_OK;
  return EXIT_USAGE;
}

/** A command-line mistake commander found (unknown option or command, missing argument) as our coded error. */
function commanderError(error: CommanderError): SeekframeError {
  const message = error.message.replace(/^error:\s*/, '');
  return new SeekframeError('invalid-argument', `${message}; see \`seekframe --help\` or \`seekframe <command> --help\`.`, {
    stage: 'config',
    details: { commander: error.code },
  });
}
