/**
 * What the studio API sends (studio-api.ts) and the page reads (browser/): plain types, no
 * `node:` imports, so the browser code type-checks against the same definitions.
 */
import type { Fps, SeekframeErrorData, SourceElement } from '@seekframe/composition';
import type { JobStatus } from '@seekframe/producer/http';

export interface EditorChoice {
  /** Shown to the user, e.g. "VS Code" or "vim". */
  name: string;
  /** URL template with `{file}` (absolute path), `{line}`, `{column}`; null when the editor has no URL scheme. */
  url: string | null;
  /** Command-line template (terminal editors), same placeholders; null when a link does it. */
  command: string | null;
  /** Where the choice came from: `SEEKFRAME_EDITOR_URL`, `VISUAL`, `EDITOR` or `PATH`. */
  from: 'SEEKFRAME_EDITOR_URL' | 'VISUAL' | 'EDITOR' | 'PATH';
}

export interface EditorInfo {
  editor: EditorChoice | null;
  /** A configured template that was refused, and why (shown in the inspector). */
  problem?: string;
}

/** `GET studio.json` */
export interface StudioInfo extends EditorInfo {
  /** Absolute project folder. */
  root: string;
  /** Absolute entry file. */
  entryFile: string;
  /** Entry relative to the project folder (POSIX). */
  entry: string;
  revision: number;
}

/** `GET source.json?file=`, and the answer to every write: one project HTML file as it is now. */
export interface SourceInfo {
  /** Relative to the project folder (POSIX). */
  file: string;
  /** SHA-256 (hex) of the file's content: a write must send it back (409 `source-changed` when the file moved on). */
  hash: string;
  elements: SourceElement[];
}

/** One change of a timeline edit: the attribute of the element whose start tag begins at line:column. */
export interface EditChange {
  line: number;
  column: number;
  attribute: string;
  value: string;
}

/** `POST edits` */
export interface EditRequest {
  file?: string;
  hash: string;
  /** Shown in the undo history, e.g. "Move title". */
  label?: string;
  changes: EditChange[];
}

/** `GET edits`: what undo and redo would do next. */
export interface EditHistory {
  undo: { file: string; label: string } | null;
  redo: { file: string; label: string } | null;
}

/** The answer to `POST edits`, `edits/undo`, `edits/redo` and `variables/defaults`. */
export interface EditResult extends SourceInfo {
  history: EditHistory;
}

/** `GET waveform?src=`: peaks of an audio or video file's sound. */
export interface WaveformInfo {
  /** Seconds of sound the peaks cover. */
  duration: number;
  /** Peaks per second. */
  rate: number;
  /** Loudest sample of each slice, 0..1. */
  peaks: number[];
}

/** One render of the session, as the render panel shows it. */
export interface StudioRender {
  id: string;
  status: JobStatus;
  stage: string | null;
  /** 0..1 */
  progress: number;
  framesRendered: number;
  totalFrames: number | null;
  format: string;
  quality: string;
  fps: Fps | null;
  /** Device scale factor of the capture (1 unless set). */
  scale?: number;
  /** Inclusive composition frames rendered, when only a range was. */
  frames?: { start: number; end: number };
  variables: Record<string, unknown>;
  /** Absolute path of the output (a folder for png-sequence); the page shows `file`. */
  output: string;
  /** The same, relative to the project folder (POSIX). */
  file: string;
  createdAt: string;
  endedAt?: string;
  /** A project file was edited after this render started. */
  stale: boolean;
  result?: { size: number; durationMs: number; videoDuration: number; frames: number };
  error?: SeekframeErrorData;
  reason?: string;
  warnings: Array<{ code: string; message: string }>;
}
