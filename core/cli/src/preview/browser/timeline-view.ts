import type { Fps } from '@seekframe/composition';
import { element, h } from './dom.js';
import { clipFrames, rulerTicks, stepZoom, timeAtX, trackRows, type LaidClip } from './timeline-layout.js';

/** A block of the timeline: one clip, media element or sub-composition instance. */
export interface ViewClip extends LaidClip {
  /** `data-clip-id` and the block's text: the clip's id, else `<tag>#n`. */
  label: string;
  kind: string;
  /** The clip has no length of its own and runs to the composition's end. */
  openEnded: boolean;
}

export interface TimelineCallbacks {
  seek(t: number): void;
  /** A block was chosen; `t` is where the pointer was (undefined from the keyboard). */
  select(key: string, t: number | undefined): void;
  zoomChanged(zoom: number): void;
}

const KIND_TEXT: Record<string, string> = { element: 'clip', video: 'video', audio: 'audio', composition: 'sub-composition' };

/**
 * The timeline under the player: a ruler (seconds, and frames when zoomed in), one row per track
 * with a button per clip, and the playhead. Clicks and drags on the ruler or a row seek; a block
 * selects its clip. Geometry comes from timeline-layout.ts; the clips' times from the player.
 */
export class TimelineView {
  private clips: ViewClip[] = [];
  private duration = 0;
  private fps: Fps = { num: 30, den: 1 };
  private zoomValue = 1;
  private pxPerSecond = 100;
  private time = 0;
  private selected: string | null = null;
  private readonly scroll = element('tl-scroll');
  private readonly content = element('tl-content');
  private readonly ruler = element('tl-ruler');
  private readonly rows = element('tl-rows');
  private readonly labels = element('tl-labels');
  private readonly playhead = element('tl-playhead');

  constructor(private readonly callbacks: TimelineCallbacks) {
    this.ruler.addEventListener('pointerdown', (e) => {
      this.ruler.setPointerCapture(e.pointerId);
      callbacks.seek(this.timeAt(e));
    });
    this.ruler.addEventListener('pointermove', (e) => {
      if (this.ruler.hasPointerCapture(e.pointerId)) callbacks.seek(this.timeAt(e));
    });
    this.rows.addEventListener('click', (e) => {
      const block = (e.target as Element).closest<HTMLElement>('.tl-clip');
      // detail 0: a click from the keyboard (Enter on the block), which has no pointer position.
      if (block) callbacks.select(block.dataset.key as string, e.detail === 0 ? undefined : this.timeAt(e));
      else callbacks.seek(this.timeAt(e));
    });
    new ResizeObserver(() => this.render()).observe(this.scroll);
  }

  get zoom(): number {
    return this.zoomValue;
  }

  setClips(clips: ViewClip[], duration: number, fps: Fps): void {
    this.clips = clips;
    this.duration = duration;
    this.fps = fps;
    this.render();
  }

  setZoom(zoom: number): void {
    // Keep the playhead where it is on screen while the scale changes.
    const onScreen = this.time * this.pxPerSecond - this.scroll.scrollLeft;
    this.zoomValue = zoom;
    this.render();
    this.scroll.scrollLeft = this.time * this.pxPerSecond - onScreen;
    element('zoom-level').textContent = zoom === 1 ? 'fit' : `${zoom}×`;
    this.callbacks.zoomChanged(zoom);
  }

  zoomBy(direction: 1 | -1): void {
    this.setZoom(stepZoom(this.zoomValue, direction, this.fitPxPerSecond(), this.fps));
  }

  setTime(t: number, frame: number, lastFrame: number, text: string): void {
    this.time = t;
    const x = t * this.pxPerSecond;
    this.playhead.style.left = `${x}px`;
    this.ruler.setAttribute('aria-valuenow', String(frame));
    this.ruler.setAttribute('aria-valuemax', String(lastFrame));
    this.ruler.setAttribute('aria-valuetext', text);
    const { scrollLeft, clientWidth } = this.scroll;
    if (x < scrollLeft || x > scrollLeft + clientWidth - 4) this.scroll.scrollLeft = Math.max(0, x - clientWidth / 4);
  }

  setSelected(key: string | null): void {
    this.selected = key;
    for (const block of this.rows.querySelectorAll<HTMLElement>('.tl-clip'))
      block.setAttribute('aria-pressed', String(block.dataset.key === key));
  }

  /** Focus a block (after a reload the old button is gone). */
  focusBlock(key: string): void {
    this.rows.querySelector<HTMLElement>(`.tl-clip[data-key="${CSS.escape(key)}"]`)?.focus();
  }

  private fitPxPerSecond(): number {
    const width = this.scroll.clientWidth || 600;
    return this.duration > 0 ? (width - 2) / this.duration : 100;
  }

  private timeAt(e: MouseEvent): number {
    return timeAtX(e.clientX - this.content.getBoundingClientRect().left, this.pxPerSecond, this.duration);
  }

  private render(): void {
    this.pxPerSecond = this.fitPxPerSecond() * this.zoomValue;
    const pps = this.pxPerSecond;
    this.content.style.width = `${Math.ceil(this.duration * pps) + 2}px`;
    this.ruler.replaceChildren(
      ...rulerTicks(this.duration, pps, this.fps).map((tick) =>
        h(
          'div',
          { className: tick.major ? 'tl-tick major' : 'tl-tick', attrs: { style: `left:${tick.t * pps}px` } },
          tick.label ? h('span', {}, tick.label) : null,
        ),
      ),
    );
    const rows = trackRows(this.clips);
    this.labels.replaceChildren(
      h('div', { className: 'tl-label ruler-label' }, 'Time'),
      ...rows.map((row) => h('div', { className: 'tl-label' }, row.label)),
    );
    this.rows.replaceChildren(
      ...rows.map((row) =>
        h(
          'div',
          {
            className: 'tl-row',
            dataset: { track: row.trackIndex === undefined ? 'none' : String(row.trackIndex) },
            attrs: { role: 'group', 'aria-label': row.label },
          },
          ...row.clips.map((clip) => this.block(clip, row.label)),
        ),
      ),
    );
    if (rows.length === 0) {
      this.rows.replaceChildren(
        h(
          'p',
          { className: 'muted tl-empty' },
          'No clips: nothing here has data-start, and there is no <video>, <audio> or sub-composition. The animation runs over the whole composition.',
        ),
      );
    }
    this.setSelected(this.selected);
    this.playhead.style.left = `${this.time * pps}px`;
  }

  private block(clip: ViewClip, track: string): HTMLButtonElement {
    const pps = this.pxPerSecond;
    const { first, last } = clipFrames(clip.start, clip.end, this.fps);
    const span = `${clip.start.toFixed(2)} s to ${clip.end.toFixed(2)} s, frames ${first} to ${last}`;
    const kind = KIND_TEXT[clip.kind] ?? clip.kind;
    return h(
      'button',
      {
        type: 'button',
        className: clip.openEnded ? 'tl-clip open-ended' : 'tl-clip',
        title: `${clip.label} (${kind}): ${span}`,
        dataset: { clipId: clip.label, key: clip.key, kind: clip.kind, start: String(clip.start), end: String(clip.end) },
        attrs: {
          'aria-label': `${clip.label}, ${kind} on ${track}, ${span}`,
          'aria-pressed': 'false',
          style: `left:${clip.start * pps}px;width:${Math.max(2, (clip.end - clip.start) * pps)}px`,
        },
      },
      clip.label,
    );
  }
}
