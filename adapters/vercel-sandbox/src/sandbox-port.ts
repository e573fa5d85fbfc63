/**
 * The narrow slice of a Vercel Sandbox that Seekframe uses. The real `Sandbox` class of
 * `@vercel/sandbox` satisfies it (proved by `tsc` in sandbox-port-conformance.ts); the local
 * implementation (local-sandbox.ts) runs the same commands as child processes in a temp folder,
 * so every line of the runner and the snapshot step is exercised without the cloud.
 */

export interface SandboxFile {
  /** Relative paths are relative to the sandbox working folder (/vercel/sandbox on Vercel). */
  path: string;
  content: string | Uint8Array;
  mode?: number;
}

export interface SandboxLogLine {
  stream: 'stdout' | 'stderr';
  data: string;
}

export interface SandboxCommandResult {
  exitCode: number;
  stdout(opts?: { signal?: AbortSignal }): Promise<string>;
  stderr(opts?: { signal?: AbortSignal }): Promise<string>;
}

/** A command started with `detached: true`: its output is streamed, its end awaited. */
export interface SandboxCommand {
  readonly cmdId: string;
  /** Output chunks as the command writes them (not split into lines). Ends when the command ends. */
  logs(opts?: { signal?: AbortSignal }): AsyncIterable<SandboxLogLine>;
  wait(opts?: { signal?: AbortSignal }): Promise<SandboxCommandResult>;
  kill(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

export interface SandboxRunParams {
  cmd: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  sudo?: boolean;
  detached: true;
  signal?: AbortSignal;
}

export interface SandboxLike {
  /** Stable name of this sandbox (used to find it again, e.g. to cancel from another function). */
  readonly name: string;
  writeFiles(files: SandboxFile[], opts?: { signal?: AbortSignal }): Promise<void>;
  runCommand(params: SandboxRunParams): Promise<SandboxCommand>;
  readFileToBuffer(file: { path: string; cwd?: string }, opts?: { signal?: AbortSignal }): Promise<Buffer | null>;
  stop(opts?: { signal?: AbortSignal }): Promise<unknown>;
  /** Snapshots the file system; the sandbox is stopped as part of it. `expiration: 0` = never expires. */
  snapshot(opts?: { expiration?: number; signal?: AbortSignal }): Promise<{ readonly snapshotId: string }>;
}

/** What a fresh sandbox is created with (the build step and the no-snapshot fallback). */
export interface FreshSandboxOptions {
  /** An image pinned explicitly, e.g. `vercel/sandbox/universal` (never the SDK default). */
  image: string;
  vcpus: number;
  timeoutMs: number;
  env?: Record<string, string>;
}

export interface SnapshotSandboxOptions {
  snapshotId: string;
  vcpus: number;
  timeoutMs: number;
  env?: Record<string, string>;
}

/** Where sandboxes come from: the Vercel API (vercel-sandbox-provider.ts) or local processes. */
export interface SandboxProvider {
  create(options: FreshSandboxOptions): Promise<SandboxLike>;
  createFromSnapshot(options: SnapshotSandboxOptions): Promise<SandboxLike>;
  /** A running sandbox by name, or null when it is gone (stopped, timed out). */
  get(name: string): Promise<SandboxLike | null>;
}
