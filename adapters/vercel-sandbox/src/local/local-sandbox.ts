import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  FreshSandboxOptions,
  SandboxCommand,
  SandboxCommandResult,
  SandboxFile,
  SandboxLike,
  SandboxLogLine,
  SandboxProvider,
  SandboxRunParams,
  SnapshotSandboxOptions,
} from '../sandbox-port.js';

/**
 * The sandbox port on this machine: a sandbox is a temp folder, a command a child process in its
 * own process group (so stop() ends it and everything it started), a snapshot a copy of the
 * folder. It runs exactly the commands the runner sends to a Vercel Sandbox; only the machine
 * differs. `sudo` is ignored (the commands it marks are the image set-up, which a local recipe
 * replaces).
 */

const SANDBOX_ROOT = '/vercel/sandbox';

export interface LocalSandboxRecord {
  name: string;
  folder: string;
  fromSnapshot: string | null;
  options: FreshSandboxOptions | SnapshotSandboxOptions;
  /** Every command started, in order (`cmd args...`), for tests and logs. */
  commands: string[];
  stopped: boolean;
}

export class SandboxStoppedError extends Error {
  constructor(name: string) {
    super(`sandbox ${name} is stopped`);
  }
}

class LocalCommand implements SandboxCommand {
  readonly cmdId = `cmd_${randomUUID()}`;
  private readonly chunks: SandboxLogLine[] = [];
  private readonly listeners = new Set<() => void>();
  private exitCode: number | null = null;
  private readonly exited: Promise<number>;

  constructor(private readonly child: ChildProcess) {
    const push = (stream: 'stdout' | 'stderr') => (data: Buffer) => {
      this.chunks.push({ stream, data: data.toString('utf8') });
      this.notify();
    };
    child.stdout?.on('data', push('stdout'));
    child.stderr?.on('data', push('stderr'));
    this.exited = new Promise((resolve) => {
      child.on('error', (error) => {
        this.chunks.push({ stream: 'stderr', data: `${error.message}\n` });
        this.exitCode = 127;
        this.notify();
        resolve(127);
      });
      // 'close' (not 'exit'): all output has been read by then.
      child.on('close', (code, signal) => {
        this.exitCode = code ?? (signal === 'SIGKILL' ? 137 : 143);
        this.notify();
        resolve(this.exitCode);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exitCode === null;
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  async *logs(opts?: { signal?: AbortSignal }): AsyncGenerator<SandboxLogLine> {
    let index = 0;
    while (true) {
      if (opts?.signal?.aborted) return;
      if (index < this.chunks.length) {
        yield this.chunks[index++] as SandboxLogLine;
        continue;
      }
      if (this.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.listeners.delete(done);
          opts?.signal?.removeEventListener('abort', done);
          resolve();
        };
        this.listeners.add(done);
        opts?.signal?.addEventListener('abort', done);
      });
    }
  }

  async wait(): Promise<SandboxCommandResult> {
    const exitCode = await this.exited;
    const text = (stream: 'stdout' | 'stderr'): string =>
      this.chunks
        .filter((c) => c.stream === stream)
        .map((c) => c.data)
        .join('');
    return { exitCode, stdout: async () => text('stdout'), stderr: async () => text('stderr') };
  }

  async kill(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    if (this.exitCode !== null || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** Waits for the end without reading the output. */
  get done(): Promise<number> {
    return this.exited;
  }
}

class LocalSandbox implements SandboxLike {
  private readonly commands: LocalCommand[] = [];

  constructor(
    readonly record: LocalSandboxRecord,
    private readonly provider: LocalSandboxProvider,
  ) {}

  get name(): string {
    return this.record.name;
  }

  /** Paths like the real sandbox's: relative to its working folder, or absolute under /vercel/sandbox. */
  private resolve(file: string, cwd?: string): string {
    const base = cwd ? this.resolve(cwd) : this.record.folder;
    if (file.startsWith(`${SANDBOX_ROOT}/`) || file === SANDBOX_ROOT)
      return path.join(this.record.folder, path.relative(SANDBOX_ROOT, file));
    if (path.isAbsolute(file)) return path.join(this.record.folder, file);
    return path.resolve(base, file);
  }

  private assertRunning(): void {
    if (this.record.stopped) throw new SandboxStoppedError(this.name);
  }

  async writeFiles(files: SandboxFile[]): Promise<void> {
    this.assertRunning();
    for (const file of files) {
      const target = this.resolve(file.path);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.content, file.mode === undefined ? {} : { mode: file.mode });
    }
  }

  async runCommand(params: SandboxRunParams): Promise<SandboxCommand> {
    this.assertRunning();
    const args = params.args ?? [];
    this.record.commands.push([params.cmd, ...args].join(' '));
    const options = this.record.options;
    const child = spawn(params.cmd, args, {
      cwd: params.cwd ? this.resolve(params.cwd) : this.record.folder,
      env: { ...process.env, ...(options.env ?? {}), ...(params.env ?? {}) },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: stop() and kill() end the command and everything it started.
      detached: true,
    });
    const command = new LocalCommand(child);
    this.commands.push(command);
    params.signal?.addEventListener('abort', () => void command.kill('SIGKILL'), { once: true });
    return command;
  }

  async readFileToBuffer(file: { path: string; cwd?: string }): Promise<Buffer | null> {
    this.assertRunning();
    try {
      return await readFile(this.resolve(file.path, file.cwd));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  private stopping: Promise<void> | null = null;

  /** Idempotent; concurrent callers all wait for the same teardown. */
  stop(): Promise<void> {
    this.stopping ??= this.teardown();
    return this.stopping;
  }

  private async teardown(): Promise<void> {
    this.record.stopped = true;
    await Promise.all(
      this.commands.map(async (command) => {
        await command.kill('SIGKILL');
        await command.done;
      }),
    );
    // A real stop ends the whole VM. Browsers the CLI started sit in their own process groups,
    // so also end every process still working inside this sandbox's folder.
    await killProcessesIn(this.record.folder);
    await rm(this.record.folder, { recursive: true, force: true });
  }

  async snapshot(): Promise<{ snapshotId: string }> {
    this.assertRunning();
    const snapshotId = `snap_${randomUUID()}`;
    await cp(this.record.folder, path.join(this.provider.snapshotsDir, snapshotId), { recursive: true, verbatimSymlinks: true });
    // Like the real one: taking a snapshot stops the sandbox.
    await this.stop();
    return { snapshotId };
  }
}

/** Linux: every process whose working folder is inside `folder` gets SIGKILL, until none is left. */
async function killProcessesIn(folder: string): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    const pids: number[] = [];
    for (const entry of await readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => '');
      if (cwd === folder || cwd.startsWith(`${folder}/`)) pids.push(Number(entry));
    }
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export class LocalSnapshotNotFoundError extends Error {
  readonly code = 'snapshot_not_found';
  constructor(snapshotId: string) {
    super(`snapshot ${snapshotId} not found (expired or deleted)`);
  }
}

export class LocalSandboxProvider implements SandboxProvider {
  /** Every sandbox this provider made, in order (tests check that each one was stopped). */
  readonly sandboxes: LocalSandboxRecord[] = [];
  private readonly live = new Map<string, LocalSandbox>();

  constructor(
    readonly workDir: string,
    readonly snapshotsDir = path.join(workDir, 'snapshots'),
  ) {}

  static async create(): Promise<LocalSandboxProvider> {
    return new LocalSandboxProvider(await mkdtemp(path.join(tmpdir(), 'seekframe-local-sandboxes-')));
  }

  private async open(options: FreshSandboxOptions | SnapshotSandboxOptions, fromSnapshot: string | null): Promise<LocalSandbox> {
    await mkdir(path.join(this.workDir, 'sandboxes'), { recursive: true });
    const folder = await mkdtemp(path.join(this.workDir, 'sandboxes', 'sbx-'));
    if (fromSnapshot) await cp(path.join(this.snapshotsDir, fromSnapshot), folder, { recursive: true, verbatimSymlinks: true });
    const record: LocalSandboxRecord = { name: path.basename(folder), folder, fromSnapshot, options, commands: [], stopped: false };
    this.sandboxes.push(record);
    const sandbox = new LocalSandbox(record, this);
    this.live.set(record.name, sandbox);
    return sandbox;
  }

  create(options: FreshSandboxOptions): Promise<SandboxLike> {
    return this.open(options, null);
  }

  async createFromSnapshot(options: SnapshotSandboxOptions): Promise<SandboxLike> {
    const exists = await stat(path.join(this.snapshotsDir, options.snapshotId)).then(
      () => true,
      () => false,
    );
    if (!exists) throw new LocalSnapshotNotFoundError(options.snapshotId);
    return this.open(options, options.snapshotId);
  }

  async get(name: string): Promise<SandboxLike | null> {
    const sandbox = this.live.get(name);
    return sandbox && !sandbox.record.stopped ? sandbox : null;
  }

  /** Stops every sandbox still running and removes the work folder (test clean-up). */
  async dispose(): Promise<void> {
    await Promise.all([...this.live.values()].map((sandbox) => sandbox.stop()));
    await rm(this.workDir, { recursive: true, force: true });
  }
}
