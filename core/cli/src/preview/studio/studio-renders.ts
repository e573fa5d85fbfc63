import { existsSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';
import { SeekframeError } from '@seekframe/composition';
import {
  createRenderJobs,
  parseRenderOptions,
  type JobSnapshot,
  type RenderEventListener,
  type RenderOptions,
  type RenderResult,
} from '@seekframe/producer';
import { projectHtmlFile } from './project-html-file.js';
import { studioOutputPath } from './studio-output-path.js';
import type { StudioRender } from './studio-types.js';

export type { StudioRender };

/** `POST /__seekframe/studio/renders`: what the render panel sends. Ranges are the render's own rules. */
export const StudioRenderBodySchema = z.strictObject({
  format: z.string().optional(),
  quality: z.string().optional(),
  fps: z.union([z.number(), z.string(), z.object({ num: z.number(), den: z.number() })]).optional(),
  scale: z.number().optional(),
  /** Inclusive composition frames (the work area); the render's own `frames` rules apply. */
  frames: z.unknown().optional(),
  /** The output's name in renders/ (no folders); default `<project>-<date>-<time>`. */
  name: z
    .string()
    .regex(/^[\w][\w .-]{0,99}$/, 'must be a plain file name: letters, digits, spaces, "-", "_" and "." (at most 100), no folders')
    .optional(),
  /** A composition file of the project to render instead of the entry (a sub-composition opened on its own). */
  file: z.string().max(1000).optional(),
  variables: z.record(z.string(), z.unknown()).optional(),
});
export type StudioRenderBody = z.infer<typeof StudioRenderBodySchema>;

/** The local render `seekframe render` runs (`renderComposition` with the saved tuning). */
export type StudioRenderRunner = (options: RenderOptions, onEvent: RenderEventListener, signal: AbortSignal) => Promise<RenderResult>;

interface Entry {
  options: RenderOptions;
  revision: number;
  warnings: StudioRender['warnings'];
}

export interface StudioRenders {
  /** Validates the panel's settings and queues the render; throws `invalid-body`/`invalid-options`. */
  start(body: unknown): Promise<StudioRender>;
  get(id: string): StudioRender | null;
  /** Newest first. */
  list(): StudioRender[];
  /** Calls `listener` with the render now and after every change; returns the unsubscribe. */
  watch(id: string, listener: (render: StudioRender) => void): (() => void) | null;
  cancel(id: string): boolean;
  /** A project file changed: renders made before now are stale. */
  noteChange(): void;
  readonly revision: number;
  close(): Promise<void>;
}

/**
 * The render panel's job service: one render at a time (a second one waits), each kept for the
 * session with the settings, the revision of the project it was made from and its warnings.
 */
export function createStudioRenders(options: {
  root: string;
  entryFile: string;
  run: StudioRenderRunner;
  now?: () => Date;
}): StudioRenders {
  const now = options.now ?? (() => new Date());
  const entries = new Map<string, Entry>();
  const order: string[] = [];
  const outputs = new Set<string>();
  let revision = 0;
  const jobs = createRenderJobs<RenderOptions, RenderResult>({
    maxConcurrent: 1,
    retainMs: Number.POSITIVE_INFINITY,
    run: (request, ctx) => options.run(request, ctx.report, ctx.signal),
  });

  const view = (job: JobSnapshot<RenderResult>): StudioRender => {
    const entry = entries.get(job.id) as Entry;
    const { options: o } = entry;
    const result = job.result;
    return {
      id: job.id,
      status: job.status,
      stage: job.stage,
      progress: job.progress,
      framesRendered: job.framesRendered,
      totalFrames: job.totalFrames,
      format: o.format,
      quality: o.quality,
      fps: o.fps ?? result?.fps ?? null,
      ...(o.scale !== undefined && o.scale !== 1 ? { scale: o.scale } : {}),
      ...(o.frames ? { frames: { start: o.frames.start, end: o.frames.end } } : {}),
      variables: o.variables ?? {},
      output: o.output as string,
      file: path
        .relative(options.root, o.output as string)
        .split(path.sep)
        .join('/'),
      createdAt: job.createdAt,
      ...(job.endedAt ? { endedAt: job.endedAt } : {}),
      stale: entry.revision !== revision,
      ...(result
        ? { result: { size: result.size, durationMs: result.durationMs, videoDuration: result.videoDuration, frames: result.frames } }
        : {}),
      ...(job.error ? { error: job.error } : {}),
      ...(job.reason ? { reason: job.reason } : {}),
      warnings: [...entry.warnings],
    };
  };

  return {
    async start(body) {
      const parsed = StudioRenderBodySchema.safeParse(body);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
        throw new SeekframeError(
          'invalid-body',
          `The render settings are not usable: ${problems.join('; ')}. Send {format?, quality?, fps?, scale?, frames?, name?, file?, variables?}.`,
          {
            stage: 'config',
            details: { problems },
          },
        );
      }
      const { name, file, ...settings } = parsed.data;
      const format = settings.format ?? 'mp4';
      const composition = file === undefined ? options.entryFile : await compositionFile(options.root, file);
      const output = studioOutputPath(
        options.root,
        format as RenderOptions['format'],
        now(),
        (candidate) => outputs.has(candidate) || existsSync(candidate),
        name,
      );
      const renderOptions = parseRenderOptions({ ...settings, format, projectDir: composition, output });
      outputs.add(output);
      const job = jobs.submit(renderOptions);
      const entry: Entry = { options: renderOptions, revision, warnings: [] };
      entries.set(job.id, entry);
      order.unshift(job.id);
      jobs.subscribe(job.id, (event) => {
        if (event.type === 'warning') entry.warnings.push({ code: event.code, message: event.message });
      });
      return view(jobs.get(job.id) ?? job);
    },
    get(id) {
      const job = entries.has(id) ? jobs.get(id) : null;
      return job ? view(job) : null;
    },
    list() {
      return order
        .map((id) => jobs.get(id))
        .filter((job): job is JobSnapshot<RenderResult> => job !== null)
        .map(view);
    },
    watch(id, listener) {
      if (!entries.has(id)) return null;
      return jobs.subscribe(id, (_event, job) => listener(view(job)));
    },
    cancel: (id) => entries.has(id) && jobs.cancel(id, 'cancelled from the render panel'),
    noteChange() {
      revision++;
    },
    get revision() {
      return revision;
    },
    close: () => jobs.shutdown({ reason: 'the preview is stopping' }),
  };
}

/** A composition file of the project to render (projectHtmlFile's rule). */
async function compositionFile(root: string, file: string): Promise<string> {
  const found = await projectHtmlFile(root, file);
  if ('path' in found) return found.path;
  throw new SeekframeError('invalid-body', `file ${JSON.stringify(file.slice(0, 200))} ${found.problem}; send a path such as card.html.`, {
    stage: 'config',
    details: { field: 'file' },
  });
}
