/**
 * Compile-time proof that the real `@vercel/sandbox` classes satisfy our narrow port. Nothing here
 * runs; `tsc` (build and typecheck) fails when an SDK update changes a signature we rely on.
 */
import type { Command, CommandFinished, Sandbox, Snapshot } from '@vercel/sandbox';
import type { SandboxCommand, SandboxCommandResult, SandboxLike } from './sandbox-port.js';

export type SandboxConformance = [
  (sandbox: Sandbox) => SandboxLike,
  (command: Command) => SandboxCommand,
  (finished: CommandFinished) => SandboxCommandResult,
  (snapshot: Snapshot) => { readonly snapshotId: string },
];

// The identity functions below are where the assignability is checked.
export const sandboxConformance: SandboxConformance = [(s) => s, (c) => c, (f) => f, (s) => s];
