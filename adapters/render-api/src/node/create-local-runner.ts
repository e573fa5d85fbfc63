import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import { parseRunnerEvent } from '../parse-runner-event.js';
import type { ObjectStore, RenderRunner, RunnerContext, RunnerJob, RunnerOutcome } from '../ports.js';
import { jobOutput, stillFlags } from '../render-job.js';

/**
 * How to start the Seekframe CLI: a command and the arguments before `render ...`. The host
 * passes it (this package does not depend on the CLI package, which may depend on adapters);
 * with the `seekframe` package installed: `{ command: process.execPath, args: [seekframeBin] }`,
 * `seekframeBin` from `seekframe/bin-path`.
 */
export interface CliCommand {
  command: string;
  args: string[];
}

export interface LocalRunnerOptions {
  /** The template's composition folder (its index.html is rendered). */
  compositionDir: string;
  /** Where finished files go (under the job's outputKey). */
  objects: ObjectStore;
  /** How to start the Seekframe CLI (required). */
  cli: CliCommand;
  /** `--workers`; default 'auto'. */
  workers?: number | 'auto';
  /** Chromium GPU; default off (`--no-browser-gpu`), as on servers without one. */
  browserGpu?: boolean;
  /** Renders at once in this process; more are refused with `too-many-renders`. Default 2. */
  maxConcurrent?: number;
  /** Environment of the child; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Parent folder of each job's temp folder; default the OS temp folder. */
  tempDir?: string;
}

/** Refuses a missing or malformed `cli` option with the fix, before anything is started or created. */
export function assertCliCommand(cli: unknown, option: string): asserts cli is CliCommand {
  const valid =
    typeof cli === 'object' &&
    cli !== null &&
    typeof (cli as CliCommand).command === 'string' &&
    (cli as CliCommand).command !== '' &&
    Array.isArray((cli as CliCommand).args) &&
    (cli as CliCommand).args.every((arg) => typeof arg === 'string');
  if (valid) return;
  throw new SeekframeError(
    'invalid-server-options',
    `The local runner needs \`${option}\`: how to start the Seekframe CLI, as { command, args }. With the seekframe package installed: { command: process.execPath, args: [seekframeBin] }, seekframeBin imported from 'seekframe/bin-path'.`,
    { stage: 'config' },
  );
}

/** The `seekframe render` (or, for a still, `seekframe still`) arguments for one job (pure, so a test can read them). */
export function renderArguments(
  job: RunnerJob,
  paths: { project: string; output: string; variablesFile: string },
  options: { workers: number | 'auto'; browserGpu: boolean },
): string[] {
  const { still } = job.request;
  // A still is `seekframe still` (one browser, the frame's PNG); a video `seekframe render`.
  const args = still
    ? ['still', paths.project, '--json', '--output', paths.output, ...stillFlags(still)]
    : ['render', paths.project, '--json', '--output', paths.output, '--format', job.request.format, '--workers', String(options.workers)];
  if (options.browserGpu) args.push('--browser-gpu');
  else if (!still) args.push('--no-browser-gpu');
  // A page rendered for a request is untrusted (DESIGN 8a): it reaches only its own project.
  args.push('--network', 'sandboxed');
  if (job.request.quality && !still) args.push('--quality', job.request.quality);
  if (job.request.fps !== undefined) args.push('--fps', String(job.request.fps));
  if (job.request.frames) args.push('--frames', `${job.request.frames.start}-${job.request.frames.end}`);
  args.push('--variables-file', paths.variablesFile, '--strict-variables');
  args.push(
    '--max-frames',
    String(job.limits.maxFrames),
    '--max-render-seconds',
    String(job.limits.maxRenderSeconds),
    '--max-pixels',
    String(job.limits.maxPixels),
  );
  if (job.limits.maxMemoryMB !== undefined) args.push('--max-memory', String(job.limits.maxMemoryMB));
  return args;
}

/**
 * Runs each job as a child process of the Seekframe CLI (`seekframe render <dir> --json`) in a
 * temp folder, forwards its JSON event lines, then puts the file into the object store under
 * the job's key. Cancel = SIGTERM (the CLI removes its partial output and exits).
 */
export function createLocalRunner(options: LocalRunnerOptions): RenderRunner & { running(): number; cancelAll(): Promise<void> } {
  const children = new Map<string, ChildProcess>();
  /** Jobs cancelled through cancel(id) (another instance's DELETE, or a platform stop). */
  const cancelled = new Set<string>();
  let active = 0;
  /** Every start() still in flight, so cancelAll() can wait until their temp folders are gone. */
  const inFlight = new Set<Promise<unknown>>();
  const maxConcurrent = options.maxConcurrent ?? 2;
  assertCliCommand(options.cli, 'cli');
  const cli = options.cli;
  const renderInFolder = async (job: RunnerJob, context: RunnerContext, work: string): Promise<RunnerOutcome> => {
    let project = path.resolve(options.compositionDir);
    if (job.request.html !== undefined) {
      project = path.join(work, 'project');
      await mkdir(project);
      await writeFile(path.join(project, 'index.html'), job.request.html);
    }
    const output = path.join(work, `output.${jobOutput(job.request).extension}`);
    const variablesFile = path.join(work, 'variables.json');
    await writeFile(variablesFile, JSON.stringify(job.request.variables));
    const args = [
      ...cli.args,
      ...renderArguments(
        job,
        { project, output, variablesFile },
        { workers: options.workers ?? 'auto', browserGpu: options.browserGpu ?? false },
      ),
    ];
    const child = spawn(cli.command, args, { cwd: work, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.set(job.id, child);
    if (context.signal.aborted) child.kill('SIGTERM');
    const onAbort = (): void => {
      child.kill('SIGTERM');
    };
    context.signal.addEventListener('abort', onAbort, { once: true });

    let failure: SeekframeErrorData | undefined;
    let durationMs: number | undefined;
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const event = parseRunnerEvent(line);
      if (!event) return;
      if (event.type === 'error') failure = event.error;
      if (event.type === 'complete') durationMs = event.durationMs;
      context.emit(event);
    });
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    context.signal.removeEventListener('abort', onAbort);
    children.delete(job.id);
    if (cancelled.has(job.id) || context.signal.aborted) {
      throw new SeekframeError('render-cancelled', `Render ${job.id} was cancelled.`, { stage: 'capture' });
    }
    if (failure) throw SeekframeError.fromJSON(failure);
    if (exit.error || exit.code !== 0) {
      const why = exit.error ? exit.error.message : `exit code ${exit.code ?? exit.signal}`;
      throw new SeekframeError(
        'render-failed',
        `The Seekframe CLI failed (${why}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no output'}`,
        { stage: 'capture', retryable: true },
      );
    }
    const stream = Readable.toWeb(createReadStream(output)) as unknown as ReadableStream<Uint8Array>;
    await options.objects.put(job.outputKey, stream, { contentType: job.contentType });
    return { kind: 'stored', ...(durationMs !== undefined ? { durationMs } : {}) };
  };

  return {
    running: () => active,
    async start(job, context) {
      // Counted before the first await, so two starts in one tick cannot both take the last slot.
      if (active >= maxConcurrent) {
        throw new SeekframeError('too-many-renders', `This machine is rendering ${maxConcurrent} video(s) already; try again shortly.`, {
          stage: 'config',
          retryable: true,
        });
      }
      active++;
      const work = await mkdtemp(path.join(options.tempDir ?? tmpdir(), 'seekframe-job-')).catch((error: unknown) => {
        active--;
        throw error;
      });
      const run = (async () => {
        try {
          return await renderInFolder(job, context, work);
        } finally {
          active--;
          children.delete(job.id);
          cancelled.delete(job.id);
          await rm(work, { recursive: true, force: true });
        }
      })();
      inFlight.add(run);
      void run.catch(() => undefined).finally(() => inFlight.delete(run));
      return run;
    },
    /** Cancels every running render and resolves once all of them ended and cleaned up. */
    async cancelAll() {
      await Promise.all([...children.keys()].map((id) => this.cancel(id)));
      await Promise.allSettled([...inFlight]);
    },
    async cancel(id) {
      const child = children.get(id);
      if (!child) return;
      cancelled.add(id);
      child.kill('SIGTERM');
    },
  };
}
