import { frameTime, type Fps } from '@seekframe/composition';
import type { EditChange, EditHistory, EditResult, SourceInfo } from '../studio/studio-types.js';
import { ApiFailure, studioJson } from './api.js';
import type { StudioClip } from './studio-clips.js';
import type { BlockEdit } from './timeline-drag.js';
import { durationText, secondsText, startText } from './timing-text.js';

import { element } from './dom.js';

export interface EditsHost {
  clip(key: string): StudioClip | undefined;
  fps(): Fps;
  /** The file as the page read it (its hash goes with every write). */
  source(file: string): SourceInfo | undefined;
  /** The file as it is after a write (new hash, new lines). */
  written(info: SourceInfo): void;
  say(message: string, error?: boolean): void;
  /** The file changed on disk: read everything again. */
  reload(): void;
  /** Put the timeline back as it was (an edit was refused). */
  redraw(): void;
}

const attr = (clip: StudioClip, name: string): string | undefined => clip.source?.attributes.find(([n]) => n === name)?.[1];

/**
 * Turns a drag into the edit of the file the clip is written in (`POST edits`): the attribute
 * values that make it show exactly the new frames, a relative start keeping its reference; and
 * undo / redo through the server's history, which gives the file back byte for byte.
 */
export class TimelineEdits {
  private history: EditHistory = { undo: null, redo: null };

  constructor(private readonly host: EditsHost) {
    element('undo').addEventListener('click', () => void this.undo());
    element('redo').addEventListener('click', () => void this.redo());
  }

  /** What undo and redo would do next (the server's history), shown on the Undo and Redo buttons. */
  showHistory(next: EditHistory): void {
    this.history = next;
    const undo = element<HTMLButtonElement>('undo');
    const redo = element<HTMLButtonElement>('redo');
    undo.disabled = !next.undo;
    redo.disabled = !next.redo;
    undo.title = next.undo ? `Undo "${next.undo.label}" in ${next.undo.file} (Ctrl+Z)` : 'Nothing to undo';
    redo.title = next.redo ? `Redo "${next.redo.label}" in ${next.redo.file} (Ctrl+Shift+Z)` : 'Nothing to redo';
  }

  /** Null when the block can be dragged, else why not. */
  editable(key: string): string | null {
    const clip = this.host.clip(key);
    if (!clip) return 'That block is gone; the timeline is being redrawn.';
    if (!clip.source) return `${clip.label} is not written in ${clip.file} (a script made it): there is no attribute to change.`;
    if (!this.host.source(clip.file)) return `${clip.file} is still being read; try again.`;
    return null;
  }

  changes(edit: BlockEdit): { clip: StudioClip; changes: EditChange[] } {
    const clip = this.host.clip(edit.key) as StudioClip;
    const fps = this.host.fps();
    const source = clip.source!;
    const at = { line: source.location.line, column: source.location.column };
    const shift = Math.round((clip.offset * fps.num) / fps.den);
    const localStart = clip.start - clip.offset;
    const changes: EditChange[] = [];
    const set = (attribute: string, value: string): void => {
      if (attr(clip, attribute) !== value) changes.push({ ...at, attribute, value });
    };
    const newStart = frameTime(edit.startFrame - shift, fps);
    if (edit.mode !== 'trim-end') set('data-start', startText(attr(clip, 'data-start') ?? '0', localStart, edit.startFrame - shift, fps));
    const hasDuration = attr(clip, 'data-duration') !== undefined;
    if (edit.mode === 'trim-end' || (edit.mode === 'trim-start' && hasDuration))
      set('data-duration', durationText(edit.mode === 'trim-end' ? localStart : newStart, edit.endFrame - shift, fps));
    if (edit.mode === 'trim-start' && (clip.kind === 'video' || clip.kind === 'audio')) {
      const mediaStart = clip.mediaStart + (newStart - localStart);
      if (mediaStart < -1e-9) throw new Error(`${clip.label} starts at the beginning of its media; it cannot be extended earlier.`);
      set('data-media-start', secondsText(mediaStart));
    }
    return { clip, changes };
  }

  async commit(edit: BlockEdit): Promise<void> {
    let planned: ReturnType<TimelineEdits['changes']>;
    try {
      planned = this.changes(edit);
    } catch (error) {
      this.host.say(error instanceof Error ? error.message : String(error), true);
      this.host.redraw();
      return;
    }
    const { clip, changes } = planned;
    if (changes.length === 0) return this.host.redraw();
    const label = `${edit.mode === 'move' ? 'Move' : 'Trim'} ${clip.label}`;
    await this.send('edits', { file: clip.file, hash: this.host.source(clip.file)!.hash, label, changes }, `${label}: ${clip.file} saved`);
  }

  async undo(): Promise<void> {
    const step = this.history.undo;
    if (step) await this.travel('undo', step.file, `Undid "${step.label}"`);
  }

  async redo(): Promise<void> {
    const step = this.history.redo;
    if (step) await this.travel('redo', step.file, `Redid "${step.label}"`);
  }

  private async travel(way: 'undo' | 'redo', file: string, done: string): Promise<void> {
    const hash = this.host.source(file)?.hash;
    if (!hash) return this.host.say(`${file} is still being read; try again.`, true);
    await this.send(`edits/${way}`, { hash }, done);
  }

  private async send(route: string, body: unknown, done: string): Promise<void> {
    try {
      const result = await studioJson<EditResult>(route, { method: 'POST', body });
      const { history, ...info } = result;
      this.host.written(info);
      this.showHistory(history);
      this.host.say(done);
    } catch (error) {
      if (error instanceof ApiFailure && error.error.code === 'source-changed') {
        this.host.say(`${error.error.message}`, true);
        this.host.reload();
      } else {
        this.host.say(error instanceof ApiFailure ? `${error.error.code}: ${error.error.message}` : String(error), true);
        this.host.redraw();
      }
    }
  }
}
