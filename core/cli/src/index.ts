export { main, createProgram } from './main.js';
export type { CliContext, CliIo, OutputStream } from './cli-context.js';
export type { CommandModule } from './command-module.js';
export { invalidArgument, isUsageError } from './usage-error.js';
export { reportError, EXIT_OK, EXIT_FAILURE, EXIT_USAGE } from './report-error.js';
