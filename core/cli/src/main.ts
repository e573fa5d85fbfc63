import { Command } from 'commander';
import { createContext, type CliContext, type CliIo } from './cli-context.js';
import type { CommandModule } from './command-module.js';
import { listenForStops, windsDownOnStop, type StopSignals } from './listen-for-stops.js';
import { readVersion } from './read-version.js';
import { reportError } from './report-error.js';

/** One line per command; each module exports `register(program, ctx)` (see command-module.ts). */
const COMMANDS: Array<() => Promise<CommandModule>> = [
  () => import('./commands/init.js'),
  () => import('./commands/lint.js'),
  () => import('./commands/check.js'),
  () => import('./commands/doctor.js'),
  () => import('./commands/render.js'),
  () => import('./commands/still.js'),
  () => import('./commands/serve.js'),
  () => import('./commands/preview.js'),
  () => import('./commands/benchmark.js'),
  () => import('./commands/lambda.js'),
  () => import('./commands/worker.js'),
];

/** Builds the commander program with every command registered and output routed to `ctx`. */
export async function createProgram(ctx: CliContext): Promise<Command> {
  const program = new Command('seekframe')
    .description('Render HTML compositions to video, frame-exact, in headless Chromium + ffmpeg.')
    .version(ctx.version, '-v, --version', 'print the seekframe version')
    // -v/--version only before a command: after one, `render dir --workers -v2` printed the
    // version and exited 0 instead of refusing the flag (found by the CLI's generated inputs).
    .enablePositionalOptions()
    .helpCommand(true)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
      outputError: (text, write) => write(ctx.colors.red(text)),
    });
  for (const load of COMMANDS) (await load()).register(program, ctx);
  return program;
}

/**
 * Entry point used by bin/seekframe.js (argv is process.argv). Returns the exit code instead of
 * exiting, so tests run it in-process: 0 ok, 1 findings or failure, 2 usage error. `stops` is
 * what bin/seekframe.js started listening to before it loaded the CLI (in-process: a new one).
 */
export async function main(argv: string[], io: Partial<CliIo> = {}, stops: StopSignals = listenForStops(argv)): Promise<number> {
  const ctx = createContext(
    {
      stdout: io.stdout ?? process.stdout,
      stderr: io.stderr ?? process.stderr,
      cwd: io.cwd ?? process.cwd(),
      env: io.env ?? process.env,
    },
    readVersion(),
    stops,
  );
  const json = argv.slice(2).includes('--json');
  try {
    const program = await createProgram(ctx);
    // A render winds down on SIGINT/SIGTERM and reports it; every other command ends by the signal as usual.
    program.hook('preAction', () => (windsDownOnStop(argv) ? stops.keep() : stops.release()));
    await program.parseAsync(argv, { from: 'node' });
    return ctx.exitCode;
  } catch (error) {
    return reportError(error, ctx, json);
  } finally {
    stops.release();
  }
}
