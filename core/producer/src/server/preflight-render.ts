import os from 'node:os';
import path from 'node:path';
import { extractCompositionMetadata, frameSpanProblem, SeekframeError, spanFrames } from '@seekframe/composition';
import { defaultFps, frameCount } from '../plan/frame-timing.js';
import { insideLexically } from '../serve/inside.js';
import { pathOutsideProject, readInsideProject } from '../serve/read-inside-project.js';
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
  let reader: (file: string) => Promise<string | undefined>;
  let shownFrom: string;
  if (request.source.kind === 'project') {
    entryFile = request.source.projectDir;
    shownFrom = settings.root;
    reader = readInsideProject(path.dirname(entryFile));
    const read = await reader(entryFile);
    if (read === undefined)
      throw new SeekframeError('entry-not-found', `${path.relative(settings.root, entryFile)} cannot be read.`, { stage: 'config' });
    text = read;
  } else {
    // Lint sees the inline document only: a path it names that is not this file does not exist.
    const html = request.source.html;
    shownFrom = path.join(os.tmpdir(), 'seekframe-inline-preflight');
    entryFile = path.join(shownFrom, 'index.html');
    // A path outside the (future) temporary project is refused as the render would refuse it,
    // the same way whether or not something exists there.
    const inlineRoot = shownFrom;
    reader = async (file) => {
      const absolute = insideLexically(inlineRoot, file);
      if (absolute === null) throw pathOutsideProject(inlineRoot, path.resolve(inlineRoot, file), 'sub-composition');
      return absolute === entryFile ? html : undefined;
    };
    text = html;
  }
  await runLint(entryFile, shownFrom, reader);
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
