import os from 'node:os';
import path from 'node:path';
import { extractCompositionMetadata, frameSpanProblem, SeekframeError, spanFrames, type PreflightHost } from '@seekframe/composition';
import { defaultFps, frameCount } from '../plan/frame-timing.js';
import { insideLexically } from '../serve/inside.js';
import { pathOutsideProject } from '../serve/read-inside-project.js';
import { preflightHost } from '../serve/preflight-host.js';
import { fontPackageCheck } from '../serve/fonts/font-package-check.js';
import { checkRenderLimits, type RenderLimits } from '../plan/render-limits.js';
import { runLint } from '../plan/run-lint.js';
import type { ParsedRenderRequest } from './render-request.js';

/**
 * What can be known about a request without starting a browser, checked before it is queued, so
 * the client gets 400 JSON (also from `POST /render/stream`, before the stream opens) instead of
 * a slot spent on a render that cannot succeed: the root's metadata, the limits, and lint errors.
 * The render checks all of it again (this is the early answer, not the only guard).
 */
export async function preflightRender(request: ParsedRenderRequest, settings: { root: string; limits: RenderLimits }): Promise<void> {
  let entryFile: string;
  let text: string;
  let host: PreflightHost;
  let shownFrom: string;
  if (request.source.kind === 'project') {
    entryFile = request.source.projectDir;
    shownFrom = settings.root;
    host = preflightHost(path.dirname(entryFile), { confined: true });
    const read = await host.readFile(entryFile);
    if (read === undefined)
      throw new SeekframeError('entry-not-found', `${path.relative(settings.root, entryFile)} cannot be read.`, { stage: 'config' });
    text = read;
  } else {
    // Lint sees the inline document only: a path it names that is not this file does not exist.
    const html = request.source.html;
    shownFrom = path.join(os.tmpdir(), 'seekframe-inline-preflight');
    entryFile = path.join(shownFrom, 'index.html');
    host = inlineHost(shownFrom, entryFile, html);
    text = html;
  }
  await runLint(entryFile, shownFrom, host);
  const name = path.relative(shownFrom, entryFile);
  const metadata = extractCompositionMetadata(text, { file: name });
  const fps = request.options.fps ?? defaultFps(metadata.fps);
  // A length from the registered timeline is known only in the page: the render counts those frames.
  const fromTimeline = metadata.durationSource === 'timeline' || metadata.durationSource === 'animations';
  const compositionFrames = fromTimeline ? Number.POSITIVE_INFINITY : frameCount(metadata.duration, fps);
  const span = request.options.frames;
  const spanProblem = span && !fromTimeline && frameSpanProblem(span, compositionFrames, 'frames', fps.num / fps.den);
  if (spanProblem)
    throw new SeekframeError('invalid-options', `${name}: ${spanProblem}.`, { stage: 'config', details: { field: 'frames' } });
  checkRenderLimits(
    settings.limits,
    {
      frames: span ? spanFrames(span) : fromTimeline ? 1 : compositionFrames,
      width: metadata.width,
      height: metadata.height,
      workers: request.options.workers,
    },
    name,
  );
}

/**
 * An inline document is a project of one file (the render writes it alone into a temp folder):
 * a path outside that folder is refused as the render would refuse it, the same way whether or
 * not something exists there; every other file is missing.
 */
function inlineHost(root: string, entryFile: string, html: string): PreflightHost {
  const place = (file: string): string => {
    const absolute = insideLexically(root, file);
    if (absolute === null) throw pathOutsideProject(root, path.resolve(root, file), 'sub-composition');
    return absolute;
  };
  return {
    readFile: async (file) => (place(file) === entryFile ? html : undefined),
    fontPackageInstalled: fontPackageCheck(root),
    fileStatus: async (file) => (place(file) === entryFile ? 'file' : 'missing'),
  };
}
