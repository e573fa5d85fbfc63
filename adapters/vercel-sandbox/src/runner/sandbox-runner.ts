import { readFile } from 'node:fs/promises';
import { SeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import { parseRunnerEvent, type RenderRunner, type RunnerContext, type RunnerJob, type RunnerOutcome } from '@seekframe/render-api';
import type { SandboxFile, SandboxLike, SandboxProvider } from '../sandbox-port.js';
import { acquireSandbox, type SandboxShape } from '../sandbox/acquire-sandbox.js';
import { runToEnd, tail } from '../sandbox/run-to-end.js';
import type { SandboxRecipe } from '../sandbox/sandbox-recipe.js';
import type { PointerLookup } from '../snapshot/snapshot-pointer.js';
import { jobPaths, renderArgs } from './render-command.js';

/** The upload script as the build made it (dist/sandbox-scripts/upload-blob.mjs). */
export const UPLOAD_SCRIPT_URL = new URL('../sandbox-scripts/upload-blob.mjs', import.meta.url);
/** The same file seen from the TypeScript sources (tests and scripts run src/ directly). */
const UPLOAD_SCRIPT_FROM_SOURCE = new URL('../../dist/sandbox-scripts/upload-blob.mjs', import.meta.url);

async function readUploadScript(): Promise<Uint8Array> {
  for (const url of [UPLOAD_SCRIPT_URL, UPLOAD_SCRIPT_FROM_SOURCE]) {
    const body = await readFile(url).catch(() => null);
    if (body) return body;
  }
  throw new SeekframeError('render-failed', `The in-sandbox upload script ${UPLOAD_SCRIPT_URL.pathname} is missing; run \`npm run build -w @seekframe/vercel-sandbox\`.`, { stage: 'config', retryable: false });
}
const UPLOAD_SCRIPT_IN_SANDBOX = 'seekframe-scripts/upload-blob.mjs';

export interface SandboxRunnerOptions {
  provider: SandboxProvider;
  recipe: SandboxRecipe;
  /** The deployment's snapshot pointer (or why there is none). */
  lookupSnapshot: () => Promise<PointerLookup>;
  /** The composition's files (relative paths; `index.html` is the entry). */
  compositionFiles: () => Promise<SandboxFile[]>;
  /** Given to the upload script inside the sandbox. `apiUrl` only for a local Blob stand-in. */
  blob: { token: string; access: 'public' | 'private'; apiUrl?: string };
  /** Default 4 vCPUs; the sandbox stops itself after `timeoutMs` (default: the render limit + 10 min). */
  shape?: Partial<SandboxShape>;
  /** Renders at once in this function instance before `too-many-renders` (429). Default 2. */
  maxConcurrent?: number;
  /** Where the runner says what it does (sandbox source, set-up steps, failures). Default console.log. */
  log?: (line: string) => void;
  /** The bundled upload script; default UPLOAD_SCRIPT_URL. */
  uploadScript?: () => Promise<Uint8Array>;
  /**
   * Which sandbox runs which job, shared by every function instance (Blob), so a DELETE that
   * reaches another instance still stops the right sandbox. Without it, cancel works only in the
   * instance that started the render.
   */
  registry?: SandboxRegistry;
}

export interface SandboxRegistry {
  put(jobId: string, sandboxName: string): Promise<void>;
  get(jobId: string): Promise<string | null>;
}

interface ActiveRender {
  abort: AbortController;
  sandbox: SandboxLike | null;
}

/**
 * The render-api runner on Vercel Sandbox: per job one sandbox (restored from the snapshot), the
 * composition written into it, `seekframe render --json` run detached with its JSON lines
 * streamed back as the job's progress, the file uploaded to Blob by a script inside the sandbox.
 * The sandbox is stopped when the job ends, however it ends (done, failed, cancelled).
 */
export function createSandboxRunner(options: SandboxRunnerOptions): RenderRunner {
  const log = options.log ?? ((line: string) => console.log(line));
  const maxConcurrent = options.maxConcurrent ?? 2;
  const active = new Map<string, ActiveRender>();
  const loadUploadScript = options.uploadScript ?? readUploadScript;

  async function run(job: RunnerJob, context: RunnerContext, render: ActiveRender): Promise<RunnerOutcome> {
    const signal = render.abort.signal;
    const shape: SandboxShape = {
      vcpus: options.shape?.vcpus ?? 4,
      timeoutMs: options.shape?.timeoutMs ?? (job.limits.maxRenderSeconds + 600) * 1000,
    };
    const acquired = await acquireSandbox({ provider: options.provider, recipe: options.recipe, lookup: options.lookupSnapshot, shape, log, signal });
    render.sandbox = acquired.sandbox;
    if (signal.aborted) throw cancelled(job.id);
    const sandbox = acquired.sandbox;
    await options.registry?.put(job.id, sandbox.name);
    const paths = jobPaths(job);

    const files: SandboxFile[] = (await options.compositionFiles()).map((file) => ({ ...file, path: `${paths.project}/${file.path}` }));
    if (job.request.html !== undefined) {
      const entry = files.find((file) => file.path === `${paths.project}/index.html`);
      if (entry) entry.content = job.request.html;
      else files.push({ path: `${paths.project}/index.html`, content: job.request.html });
    }
    files.push({ path: paths.variables, content: JSON.stringify(job.request.variables ?? {}) });
    files.push({ path: UPLOAD_SCRIPT_IN_SANDBOX, content: await loadUploadScript() });
    await sandbox.writeFiles(files, { signal });

    // The render: detached, its --json lines streamed back as they come.
    const started = Date.now();
    const command = await sandbox.runCommand({
      cmd: options.recipe.seekframe.cmd,
      args: [...options.recipe.seekframe.args, ...renderArgs(job, paths)],
      env: options.recipe.env,
      detached: true,
      signal,
    });
    let lastError: SeekframeErrorData | undefined;
    let complete: { durationMs: number; size: number } | undefined;
    let pending = '';
    let stderr = '';
    const onLine = (line: string): void => {
      const event = parseRunnerEvent(line);
      if (!event) return;
      if (event.type === 'error') lastError = event.error;
      if (event.type === 'complete') complete = { durationMs: event.durationMs, size: event.size };
      context.emit(event);
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
    if (finished.exitCode !== 0 || !complete) {
      if (lastError) throw SeekframeError.fromJSON(lastError);
      throw new SeekframeError('render-failed', `seekframe render exited with ${finished.exitCode} in sandbox ${sandbox.name} without a result:\n${tail(stderr)}`, { stage: 'capture', retryable: true });
    }

    // The upload, from inside the sandbox: the file never passes through this function.
    const upload = await runToEnd(
      sandbox,
      {
        cmd: options.recipe.node,
        args: [UPLOAD_SCRIPT_IN_SANDBOX, paths.output, job.outputKey, job.contentType],
        env: {
          BLOB_READ_WRITE_TOKEN: options.blob.token,
          BLOB_ACCESS: options.blob.access,
          ...(options.blob.apiUrl ? { VERCEL_BLOB_API_URL: options.blob.apiUrl } : {}),
        },
      },
      { signal },
    );
    if (signal.aborted) throw cancelled(job.id);
    if (upload.exitCode !== 0) {
      throw new SeekframeError('output-write-failed', `Uploading ${paths.output} to Blob as ${job.outputKey} failed in sandbox ${sandbox.name}:\n${tail(upload.stderr || upload.stdout)}\nCheck BLOB_READ_WRITE_TOKEN and the Blob store of this project.`, {
        stage: 'output',
        retryable: true,
      });
    }
    return { kind: 'stored', durationMs: complete.durationMs || Date.now() - started, size: complete.size };
  }

  return {
    async start(job, context) {
      if (active.size >= maxConcurrent) {
        throw new SeekframeError('too-many-renders', `This deployment already runs ${active.size} render(s) (RENDER_MAX_CONCURRENT=${maxConcurrent}); try again in a few seconds.`, { stage: 'config', retryable: true });
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
          await render.sandbox.stop().catch((error: unknown) => log(`seekframe: stopping sandbox ${render.sandbox?.name} failed: ${error instanceof Error ? error.message : String(error)}`));
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
  };
}

const cancelled = (id: string): SeekframeError =>
  new SeekframeError('render-cancelled', `Render ${id} was cancelled.`, { stage: 'capture', retryable: false });
