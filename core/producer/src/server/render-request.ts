import path from 'node:path';
import { z } from 'zod';
import { SeekframeError } from '@seekframe/composition';
import { parseRenderSpec, type RenderSpec } from '../plan/render-spec.js';
import { resolveProject } from '../serve/resolve-project.js';
import { inside } from '../serve/inside.js';

/**
 * The body of `POST /render` and `POST /render/stream`. Only the shape lives here; the option
 * rules (fps range, crf XOR videoBitrate, formats...) are the render spec's (RenderSpecSchema,
 * `parseRenderSpec`), so the server and the CLI reject the same values with the same words.
 */
export const RenderRequestSchema = z
  .strictObject(
    {
      /** A project folder or .html file, relative to the server's root. */
      projectDir: z.string().min(1, 'must name a folder under the server root').optional(),
      /** An inline composition document; may reference only remote assets or data: URLs. */
      html: z.string().min(1, 'must be an HTML document').optional(),
      variables: z.unknown().optional(),
      format: z.unknown().optional(),
      quality: z.unknown().optional(),
      fps: z.unknown().optional(),
      frames: z.unknown().optional(),
      crf: z.unknown().optional(),
      videoBitrate: z.unknown().optional(),
      workers: z.unknown().optional(),
      strict: z.unknown().optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field(s) ${issue.keys.join(', ')}; allowed: projectDir or html, variables, format, quality, fps, frames, crf, videoBitrate, workers, strict`
          : undefined,
    },
  )
  .refine((body) => (body.projectDir === undefined) !== (body.html === undefined), { message: 'give exactly one of projectDir or html' });

export type RenderRequest = z.output<typeof RenderRequestSchema>;

export interface ParsedRenderRequest {
  /** Render options minus projectDir/output (the job sets those). */
  options: Omit<RenderSpec, 'projectDir' | 'output'>;
  source: { kind: 'project'; projectDir: string } | { kind: 'html'; html: string };
}

/** Every problem is a `SeekframeError` the route answers with 400 (`invalid-body`, `invalid-options`...). */
export async function parseRenderRequest(body: unknown, limits: { root: string; maxHtmlBytes: number }): Promise<ParsedRenderRequest> {
  const result = RenderRequestSchema.safeParse(body);
  if (!result.success) {
    const message = result.error.issues
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`)
      .join('; ');
    throw new SeekframeError(
      'invalid-body',
      `The request body is not a render request (${message}). Send JSON like {"projectDir":"my-video","format":"mp4"}.`,
      { stage: 'config' },
    );
  }
  const { projectDir, html, ...fields } = result.data;
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const { projectDir: _placeholder, output: _output, ...options } = parseRenderSpec({ projectDir: '.', ...defined });
  if (options.format === 'png-sequence' || options.format === 'hls') {
    throw new SeekframeError(
      'invalid-options',
      `format ${options.format} writes a folder${options.format === 'hls' ? ' (a playlist and its segments)' : ''}, which the server cannot hand out as one file; use mp4, mov, webm or gif here, or \`seekframe render --format ${options.format}\` on a machine of your own.`,
      {
        stage: 'config',
        details: { field: 'format' },
      },
    );
  }
  if (html !== undefined) {
    const bytes = Buffer.byteLength(html);
    if (bytes > limits.maxHtmlBytes) {
      throw new SeekframeError(
        'html-too-large',
        `html is ${bytes} bytes, more than the server's limit of ${limits.maxHtmlBytes}; put large assets at public URLs, or render a project folder with projectDir.`,
        {
          stage: 'config',
          details: { field: 'html', bytes, limit: limits.maxHtmlBytes },
        },
      );
    }
    return { options, source: { kind: 'html', html } };
  }
  return { options, source: { kind: 'project', projectDir: await resolveInsideRoot(limits.root, projectDir!) } };
}

/**
 * `projectDir` relative to the root, symlinks resolved, must stay inside it: a request may not
 * render (and so read) files elsewhere on the machine.
 */
export async function resolveInsideRoot(root: string, projectDir: string): Promise<string> {
  const outside = (): SeekframeError =>
    new SeekframeError(
      'path-outside-root',
      `projectDir "${projectDir}" points outside the server root; give a path relative to the root, without "..".`,
      {
        stage: 'config',
        details: { field: 'projectDir' },
      },
    );
  if (path.isAbsolute(projectDir) || projectDir.includes('\0')) throw outside();
  const candidate = await inside(root, projectDir);
  if (candidate === null) throw outside();
  const project = await resolveProject(candidate).catch((error: unknown) => {
    if (error instanceof SeekframeError) {
      throw new SeekframeError(error.code, error.message.replace(candidate, projectDir), {
        stage: 'config',
        details: { field: 'projectDir' },
      });
    }
    throw error;
  });
  const realEntry = await inside(root, project.entryFile);
  if (realEntry === null) throw outside();
  return realEntry;
}
