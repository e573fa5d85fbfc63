export { main, createProgram } from './main.js';
export { createContext, type CliContext, type CliIo, type OutputStream } from './cli-context.js';
export { readVersion } from './read-version.js';
export type { StopSignals } from './listen-for-stops.js';
export type { CommandModule } from './command-module.js';
export { invalidArgument, isUsageError } from './usage-error.js';
export { reportError, EXIT_OK, EXIT_FAILURE, EXIT_USAGE } from './report-error.js';
export { CHECK_EXIT_CLEAN, CHECK_EXIT_FINDINGS, CHECK_EXIT_USAGE, CHECK_EXIT_NOT_RUN } from './commands/check.js';
// The shapes of `check --json` and of the render report, for readers of that JSON (and the docs).
export { CheckReportSchema, RenderReportSchema, type CheckReport, type RenderReport } from '@seekframe/producer';
// The rules `seekframe check` reports by (the checking guide's table is generated from them).
export { CHECK_RULES, DEFAULT_LOUDNESS_TARGET, type CheckRule } from '@seekframe/producer';
