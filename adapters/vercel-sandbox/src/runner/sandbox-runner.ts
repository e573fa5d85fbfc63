import { readFile } from 'node:fs/promises';
import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import {
  parseRunnerEvent,
  type JobUpdate,
  type RenderJob,
  type RenderRunner,
  type RunnerContext,
  type RunnerJob,
  type RunnerOutcome,
} from '@seekframe/render-api';
import type { JobResult, JobSpec } from './job-protocol.js';
import type { SandboxCommand, SandboxFile, SandboxLike, SandboxProvider } from '../sandbox-port.js';
import { acquireSandbox, type SandboxShape } from '../sandbox/acquire-sandbox.js';
import { tail } from '../sandbox/run-to-end.js';
import type { SandboxRecipe } from '../sandbox/sandbox-recipe.js';
import type { PointerLookup } from '../snapshot/snapshot-pointer.js';
import { jobPaths, renderArgs } from './render-command.js';

/** The in-sandbox job script as the build made it (dist/sandbox-scripts/run-job.mjs). */
export const JOB_SCRIPT_URL = new URL('../sandbox-scripts/run-job.mjs', import.meta.url);
/** The same file seen from the TypeScript sources (tests and scripts run src/ directly). */
const JOB_SCRIPT_FROM_SOURCE = new URL('../../dist/sandbox-scripts/run-job.mjs', import.meta.url);
const JOB_SCRIPT_IN_SANDBOX = 'seekframe-scripts/run-job.mjs';
/** The sandbox's working folder: relative paths above (files, commands) are relative to it. */
const SANDBOX_CWD = '/vercel/sandbox';

async function readJobScript(): Promise<Uint8Array> {
  for (const url of [JOB_SCRIPT_URL, JOB_SCRIPT_FROM_SOURCE]) {
    const body = await readFile(url).catch(() => null);
    if (body) return body;
  }
  throw new SeekframeError(
    'render-failed',
    `The in-sandbox job script ${JOB_SCRIPT_URL.pathname} is missing; run \`npm run build -w @seekframe/vercel-sandbox\`.`,
    { stage: 'config', retryable: false },
  );
}

/** Which sandbox runs which job, shared by every function instance (Blob). */
export interface SandboxRegistry {
  put(jobId: string, sandboxName: string): Promise<void>;
  get(jobId: string): Promise<string | null>;
}

export interface SandboxRunnerOptions {
  provider: SandboxProvider;
  recipe: SandboxRecipe;
  /** The deployment's snapshot pointer (or why there is none). */
  lookupSnapshot: () => Promise<PointerLookup>;
  /** The composition's files (relative paths; `index.html` is the entry). */
  compositionFiles: () => Promise<SandboxFile[]>;
  /** Given to the job script inside the sandbox. `apiUrl` only for a local Blob stand-in. */
  blob: { token: string; access: 'public' | 'private'; apiUrl?: string };
  /** Default 4 vCPUs; the sandbox stops itself after `timeoutMs` (default: the render limit + 10 min). */
  shape?: Partial<SandboxShape>;
  /** Renders at once in this function instance before `too-many-renders` (429). Default 2. */
  maxConcurrent?: number;
  /** Where the runner says what it does (sandbox source, set-up steps, failures). Default console.log. */
  log?: (line: string) => void;
  /** The bundled job script; default JOB_SCRIPT_URL. */
  jobScript?: () => Promise<Uint8Array>;
  /**
   * Job id -> sandbox name, shared by every instance. With it, a DELETE that reaches another
   * instance stops the right sandbox, and `poll` follows a render whose function is gone.
   */
  registry?: SandboxRegistry;
  /** The stored output of a job whose sandbox is gone (for `poll`). */
  findOutput?: (key: string) => Promise<{ url: string | null; size: number; contentType?: string } | null>;
}

interface ActiveRender {
  abort: AbortController;
  sandbox: SandboxLike | null;
}

/**
 * Writes the job's files into the sandbox and starts the job script detached: the composition
 * (its html replaced by a custom one when given), the variables, the spec, the script itself.
 */
export async function launchJob(
  sandbox: SandboxLike,
  job: RunnerJob,
  options: Pick<SandboxRunnerOptions, 'recipe' | 'compositionFiles' | 'blob'> & {
    jobScript: () => Promise<Uint8Array>;
    signal?: AbortSignal;
  },
): Promise<SandboxCommand> {
  const paths = jobPaths(job);
  const files: SandboxFile[] = (await options.compositionFiles()).map((file) => ({ ...file, path: `${paths.project}/${file.path}` }));
  if (job.request.html !== undefined) {
    const entry = files.find((file) => file.path === `${paths.project}/index.html`);
    if (entry) entry.content = job.request.html;
    else files.push({ path: `${paths.project}/index.html`, content: job.request.html });
  }
  const spec: JobSpec = {
    dir: paths.dir,
    cmd: options.recipe.seekframe.cmd,
    args: [...options.recipe.seekframe.args, ...renderArgs(job, paths)],
    output: paths.output,
    outputKey: job.outputKey,
    contentType: job.contentType,
  };
  files.push({ path: paths.variables, content: JSON.stringify(job.request.variables ?? {}) });
  files.push({ path: `${paths.dir}/spec.json`, content: JSON.stringify(spec) });
  files.push({ path: JOB_SCRIPT_IN_SANDBOX, content: await options.jobScript() });
  const signal = options.signal;
  await sandbox.writeFiles(files, signal ? { signal } : undefined);
  return sandbox.runCommand({
    cmd: options.recipe.node,
    args: [JOB_SCRIPT_IN_SANDBOX, `${paths.dir}/spec.json`],
    env: {
      ...options.recipe.env,
      BLOB_READ_WRITE_TOKEN: options.blob.token,
      BLOB_ACCESS: options.blob.access,
      ...(options.blob.apiUrl ? { VERCEL_BLOB_API_URL: options.blob.apiUrl } : {}),
    },
    detached: true,
    ...(signal ? { signal } : {}),
  });
}

/**
 * The render-api runner on Vercel Sandbox: per job one sandbox (restored from the snapshot), the
 * composition written into it, and the job script run detached: `seekframe render --json` (its
 * lines streamed back as the job's progress), then the upload to Blob from inside the sandbox.
 * The sandbox is stopped when the job ends, however it ends (done, failed, cancelled). A render
 * whose function ended meanwhile goes on in its sandbox; `poll` reads its progress and result.
 */
export function createSandboxRunner(options: SandboxRunnerOptions): RenderRunner {
  const log = options.log ?? ((line: string) => console.log(line));
  const maxConcurrent = options.maxConcurrent ?? 2;
  const active = new Map<string, ActiveRender>();
  const jobScript = options.jobScript ?? readJobScript;

  async function run(job: RunnerJob, context: RunnerContext, render: ActiveRender): Promise<RunnerOutcome> {
    const signal = render.abort.signal;
    const shape: SandboxShape = {
      vcpus: options.shape?.vcpus ?? 4,
      timeoutMs: options.shape?.timeoutMs ?? (job.limits.maxRenderSeconds + 600) * 1000,
    };
    const acquired = await acquireSandbox({
      provider: options.provider,
      recipe: options.recipe,
      lookup: options.lookupSnapshot,
      shape,
      log,
      signal,
    });
    render.sandbox = acquired.sandbox;
    if (signal.aborted) throw cancelled(job.id);
    const sandbox = acquired.sandbox;
    await options.registry?.put(job.id, sandbox.name);

    const command = await launchJob(sandbox, job, { ...options, jobScript, signal });
    let lastError: SeekframeErrorData | undefined;
    let result: JobResult | undefined;
    let pending = '';
    let stderr = '';
    const onLine = (line: string): void => {
      const event = parseRunnerEvent(line);
      if (event) {
        if (event.type === 'error') lastError = event.error;
        context.emit(event);
        return;
      }
      const parsed = parseResult(line);
      if (parsed) result = parsed;
    };
    for await (const chunk of command.logs({ signal })) {
      if (chunk.stream === 'stderr') {
        stderr = (stderr + chunk.data).slice(-8000);
        continue;
      }
      pending += chunk.data;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      lines.forEach(onLine);
    }
    if (pending) onLine(pending);
    const finished = await command.wait({ signal });
    if (signal.aborted) throw cancelled(job.id);
    if (result?.type === 'uploaded' && finished.exitCode === 0) return { kind: 'stored', durationMs: result.durationMs, size: result.size };
    if (result?.type === 'failed') throw SeekframeError.fromJSON(asErrorData(result.error));
    if (lastError) throw SeekframeError.fromJSON(lastError);
    throw new SeekframeError(
      'render-failed',
      `The render in sandbox ${sandbox.name} ended (exit ${finished.exitCode}) without a result:\n${tail(stderr)}`,
      { stage: 'capture', retryable: true },
    );
  }

  return {
    async start(job, context) {
      if (active.size >= maxConcurrent) {
        throw new SeekframeError(
          'too-many-renders',
          `This deployment already runs ${active.size} render(s) (RENDER_MAX_CONCURRENT=${maxConcurrent}); try again in a few seconds.`,
          { stage: 'config', retryable: true },
        );
      }
      const render: ActiveRender = { abort: new AbortController(), sandbox: null };
      active.set(job.id, render);
      const onAbort = (): void => render.abort.abort();
      context.signal.addEventListener('abort', onAbort, { once: true });
      if (context.signal.aborted) render.abort.abort();
      try {
        return await run(job, context, render);
      } catch (error) {
        if (render.abort.signal.aborted) throw cancelled(job.id);
        throw error;
      } finally {
        context.signal.removeEventListener('abort', onAbort);
        active.delete(job.id);
        // Whatever happened: a sandbox left running would bill until its timeout.
        if (render.sandbox) {
          await render.sandbox
            .stop()
            .catch((error: unknown) =>
              log(`seekframe: stopping sandbox ${render.sandbox?.name} failed: ${error instanceof Error ? error.message : String(error)}`),
            );
        }
      }
    },

    async cancel(id) {
      const render = active.get(id);
      if (render) {
        render.abort.abort();
        // Stop at once, not when the stream notices: the sandbox is what costs.
        await render.sandbox?.stop().catch(() => undefined);
        return;
      }
      // Started by another instance: stop its sandbox by name; that instance's stream then ends.
      const name = await options.registry?.get(id).catch(() => null);
      if (!name) return;
      const sandbox = await options.provider.get(name);
      if (sandbox) {
        log(`seekframe: stopping sandbox ${name} of cancelled render ${id}`);
        await sandbox.stop().catch(() => undefined);
      }
    },

    /** A render this instance does not watch: its sandbox's result.json / progress.json, or the stored file once the sandbox is gone. */
    async poll(job: RenderJob): Promise<JobUpdate | null> {
      const name = await options.registry?.get(job.id).catch(() => null);
      if (!name) return null;
      const paths = jobPaths(job);
      const sandbox = await options.provider.get(name);
      if (sandbox) {
        const resultBytes = await sandbox.readFileToBuffer({ path: `${paths.dir}/result.json`, cwd: SANDBOX_CWD }).catch(() => null);
        const result = resultBytes ? parseResult(resultBytes.toString('utf8')) : null;
        if (result) {
          await sandbox.stop().catch(() => undefined);
          return resultUpdate(job, result);
        }
        const progressBytes = await sandbox.readFileToBuffer({ path: `${paths.dir}/progress.json`, cwd: SANDBOX_CWD }).catch(() => null);
        const event = progressBytes ? parseRunnerEvent(progressBytes.toString('utf8')) : null;
        if (event?.type === 'progress')
          return {
            status: 'running',
            stage: event.stage,
            framesRendered: event.framesRendered,
            totalFrames: event.totalFrames,
            progress: Math.min(1, event.percent / 100),
          };
        if (event?.type === 'stage') return { status: 'running', stage: event.stage };
        return null;
      }
      // The sandbox is gone: the file tells whether the render got to the end.
      const output = await options.findOutput?.(job.outputKey).catch(() => null);
      if (output) {
        return {
          status: 'completed',
          stage: 'finish',
          progress: 1,
          result: {
            url: output.url ?? `/api/render/${encodeURIComponent(job.id)}`,
            key: job.outputKey,
            durationMs: Date.parse(job.updatedAt) - Date.parse(job.createdAt),
            size: output.size,
            ...(output.contentType ? { contentType: output.contentType } : {}),
          },
        };
      }
      return {
        status: 'failed',
        error: {
          code: 'render-failed',
          message: `The sandbox of render ${job.id} stopped before the render finished (it timed out, or was stopped); render again.`,
          stage: 'capture',
          retryable: true,
        },
      };
    },
  };
}

function parseResult(text: string): JobResult | null {
  const line = text.trim();
  if (!line.startsWith('{')) return null;
  try {
    const value = JSON.parse(line) as Partial<JobResult>;
    return value.type === 'uploaded' || value.type === 'failed' ? (value as JobResult) : null;
  } catch {
    return null;
  }
}

function resultUpdate(job: RenderJob, result: JobResult): JobUpdate {
  if (result.type === 'failed') return { status: 'failed', error: asErrorData(result.error) };
  return {
    status: 'completed',
    stage: 'finish',
    progress: 1,
    ...(job.totalFrames !== null ? { framesRendered: job.totalFrames } : {}),
    result: { url: result.url, key: result.key, durationMs: result.durationMs, size: result.size, contentType: result.contentType },
  };
}

/** An error that crossed from the sandbox as JSON: the CLI's own error data, or the job script's. */
const asErrorData = (error: { code: string; message: string; stage?: string; retryable: boolean }): SeekframeErrorData =>
  error as SeekframeErrorData;

const cancelled = (id: string): SeekframeError =>
  new SeekframeError('render-cancelled', `Render ${id} was cancelled.`, { stage: 'capture', retryable: false });
