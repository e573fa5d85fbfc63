export { main, createProgram } from './main.js';
export { createContext, type CliContext, type CliIo, type OutputStream } from './cli-context.js';
export { readVersion } from './read-version.js';
export type { StopSignals } from './listen-for-stops.js';
export type { CommandModule } from './command-module.js';
export { invalidArgument, isUsageError } from './usage-error.js';
export { reportError, EXIT_OK, EXIT_FAILURE, EXIT_USAGE } from './report-error.js';
