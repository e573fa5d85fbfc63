import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  captionCues,
  captionFileFormat,
  formatCaptionFile,
  parseCaptionTrack,
  SeekframeError,
  type CaptionCue,
  type Fps,
  type VariableDeclaration,
} from '@seekframe/composition';
import { prepareTemp, removeTemp, tempPathFor } from '@seekframe/engine';

/** A caption file to write once the render's frames are out: where, and its whole text. */
export interface CaptionSidecar {
  file: string;
  text: string;
  cues: number;
  variable: string;
}

export interface CaptionSidecarRequest {
  /** `--captions`: an .srt or .vtt path. */
  file: string;
  /** `--captions-variable`, when given. */
  variable: string | undefined;
  declarations: readonly VariableDeclaration[];
  variables: Record<string, unknown>;
  fps: Fps;
  /** Frames of the output. */
  totalFrames: number;
  /** `--frames`: the composition frame output frame 0 shows (default 0); cues move with it. */
  firstFrame?: number;
  /** The entry file, named in messages. */
  source: string;
}

/**
 * The `--captions` file of a render, made from the same caption track the page shows (the
 * variable's override, else its declared default), with cue times on the rendered frames'
 * boundaries. Known before any frame is captured, so a render that cannot write it fails at once.
 */
export function planCaptionSidecar(request: CaptionSidecarRequest): CaptionSidecar {
  const format = captionFileFormat(request.file);
  const declared = request.declarations.filter((d) => d.type === 'captions');
  const fail = (message: string, details: Record<string, unknown> = {}): SeekframeError =>
    new SeekframeError('invalid-options', message, { stage: 'config', details: { field: 'captions', ...details } });
  if (!format) throw fail(`--captions ${request.file} must name an .srt or .vtt file.`);
  let declaration: VariableDeclaration | undefined;
  if (request.variable !== undefined) {
    declaration = declared.find((d) => d.id === request.variable);
    if (!declaration) {
      throw fail(
        `--captions-variable ${request.variable}: ${request.source} declares no variable of type "captions" with that id (captions variables: ${declared.map((d) => d.id).join(', ') || 'none'}).`,
        {
          field: 'captionsVariable',
        },
      );
    }
  } else if (declared.length === 1) {
    declaration = declared[0];
  } else if (declared.length === 0) {
    throw fail(
      `--captions: ${request.source} declares no variable of type "captions" to write captions from. Declare one in data-composition-variables (see Captions in the manual), or drop --captions.`,
    );
  } else {
    throw fail(
      `--captions: ${request.source} declares ${declared.length} captions variables (${declared.map((d) => d.id).join(', ')}); choose one with --captions-variable.`,
    );
  }
  const id = declaration!.id;
  const value = request.variables[id] ?? declaration!.default;
  const parsed = parseCaptionTrack(value);
  if (!parsed.ok) {
    // checkVariables refused a bad override already; this is a bad declared default.
    const first = parsed.problems[0]!;
    throw new SeekframeError('invalid-variables', `variable "${id}": ${first.path ? `${first.path} ` : ''}${first.message}`, {
      stage: 'variables',
      details: { id, field: first.path },
    });
  }
  const cues = shiftCues(captionCues(parsed.track, request.fps, (request.firstFrame ?? 0) + request.totalFrames), request.firstFrame ?? 0);
  return { file: path.resolve(request.file), text: formatCaptionFile(cues, request.fps, format), cues: cues.length, variable: id };
}

/** Cues of the composition as cues of an output that starts at composition frame `first`: cut at its start, dropped before it. */
function shiftCues(cues: CaptionCue[], first: number): CaptionCue[] {
  if (first === 0) return cues;
  return cues
    .filter((cue) => cue.endFrame > first)
    .map((cue) => ({ ...cue, startFrame: Math.max(cue.startFrame, first) - first, endFrame: cue.endFrame - first }));
}

/** Writes the sidecar atomically (a temp file beside it, then a rename). */
export async function writeCaptionSidecar(sidecar: CaptionSidecar): Promise<void> {
  const temp = tempPathFor(sidecar.file);
  try {
    await prepareTemp(temp, sidecar.file, false);
    await writeFile(temp, sidecar.text, 'utf8');
    await rename(temp, sidecar.file);
    await removeTemp(temp); // forgets the name (the file itself was moved)
  } catch (error) {
    await removeTemp(temp);
    throw new SeekframeError(
      'output-write-failed',
      `Could not write the captions file ${sidecar.file}: ${error instanceof Error ? error.message : String(error)}. Check that the folder is writable.`,
      {
        stage: 'output',
        cause: error,
      },
    );
  }
}
