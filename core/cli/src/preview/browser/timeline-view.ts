import { frameTime, type Fps } from '@seekframe/composition';
import type { InspectedLabel } from '@seekframe/runtime';
import type { AnimationView, Lane } from './animation-lanes.js';
import { element, h } from './dom.js';
import { TimelineDrag, type DragHost } from './timeline-drag.js';
import { clipFrames, rulerTicks, stepZoom, timeAtX, trackRows, type LaidClip, type TrackRow } from './timeline-layout.js';

/** A block of the timeline: one clip, media element or sub-composition instance. */
export interface ViewClip extends LaidClip {
  /** `data-clip-id` and the block's text: the clip's id, else `<tag>#n`. */
  label: string;
  kind: string;
  /** The clip has no length of its own and runs to the composition's end. */
  openEnded: boolean;
}

export interface TimelineCallbacks extends Omit<DragHost, 'pxPerSecond' | 'fps' | 'frameCount' | 'snaps'> {
  seek(t: number): void;
  /** A block was chosen; `t` is where the pointer was (undefined from the keyboard). */
  select(key: string, t: number | undefined): void;
  /** An animation bar was chosen. */
  selectAnimation(index: number, t: number): void;
  zoomChanged(zoom: number): void;
  /** The work area was dragged on the ruler's top strip (frames, inclusive). */
  rangeDragged(from: number, to: number): void;
  /** The row's label (track switches); the default is its text. */
  rowLabel(row: TrackRow<ViewClip>): HTMLElement;
  /** Adds to a freshly drawn block (e.g. a waveform). */
  decorate(block: HTMLElement, clip: ViewClip, pxPerSecond: number): void;
  playheadTime(): number;
}

const KIND_TEXT: Record<string, string> = { element: 'clip', video: 'video', audio: 'audio', composition: 'sub-composition' };

/**
 * The timeline under the player: a ruler (seconds, frames when zoomed in, GSAP labels, the work
 * area), one row per track with a button per clip, under each clip the lanes of what animates
 * it, and the playhead. The ruler and empty row space seek; a block selects its clip and drags
 * (timeline-drag.ts) to move or trim it. Geometry from timeline-layout.ts; times from the player.
 */
export class TimelineView {
  private clips: ViewClip[] = [];
  private animation: AnimationView = { lanes: [], labels: [], animations: [] };
  private duration = 0;
  private fps: Fps = { num: 30, den: 1 };
  private zoomValue = 1;
  private pxPerSecond = 100;
  private time = 0;
  private selected: string | null = null;
  private selectedAnimation: number | null = null;
  private range: { in: number; out: number } | null = null;
  private readonly scroll = element('tl-scroll');
  private readonly content = element('tl-content');
  private readonly ruler = element('tl-ruler');
  private readonly rangeStrip = element('tl-range-strip');
  private readonly rangeBar = element('tl-range');
  private readonly rows = element('tl-rows');
  private readonly labels = element('tl-labels');
  private readonly playhead = element('tl-playhead');
  private readonly overlays = h('div');
  private readonly drag: TimelineDrag;

  constructor(private readonly callbacks: TimelineCallbacks) {
    this.content.append(this.overlays);
    this.ruler.addEventListener('pointerdown', (e) => {
      if (e.target === this.rangeStrip) return;
      this.ruler.setPointerCapture(e.pointerId);
      callbacks.seek(this.timeAt(e));
    });
    this.ruler.addEventListener('pointermove', (e) => {
      if (this.ruler.hasPointerCapture(e.pointerId)) callbacks.seek(this.timeAt(e));
    });
    this.bindRangeStrip();
    this.rows.addEventListener('click', (e) => {
      const bar = (e.target as Element).closest<HTMLElement>('.tl-anim');
      if (bar) return callbacks.selectAnimation(Number(bar.dataset.index), this.timeAt(e));
      const block = (e.target as Element).closest<HTMLElement>('.tl-clip');
      // detail 0: a click from the keyboard (Enter on the block), which has no pointer position.
      if (block) callbacks.select(block.dataset.key as string, e.detail === 0 ? undefined : this.timeAt(e));
      else callbacks.seek(this.timeAt(e));
    });
    this.scroll.addEventListener(
      'wheel',
      (e) => {
        if (!e.ctrlKey && !e.metaKey) return;
        e.preventDefault();
        this.zoomBy(e.deltaY < 0 ? 1 : -1);
      },
      { passive: false },
    );
    this.drag = new TimelineDrag(this.rows, this.content, {
      ...callbacks,
      pxPerSecond: () => this.pxPerSecond,
      fps: () => this.fps,
      frameCount: () => Math.round((this.duration * this.fps.num) / this.fps.den),
      snaps: (key) => this.snapPoints(key),
    });
    new ResizeObserver(() => this.render()).observe(this.scroll);
  }

  get zoom(): number {
    return this.zoomValue;
  }

  /** GSAP labels, in seconds. */
  get labelTimes(): number[] {
    return this.animation.labels.map((l) => l.time);
  }

  setClips(clips: ViewClip[], duration: number, fps: Fps): void {
    this.clips = clips;
    this.duration = duration;
    this.fps = fps;
    this.render();
  }

  setAnimations(view: AnimationView): void {
    this.animation = view;
    this.render();
  }

  setRange(range: { in: number; out: number } | null): void {
    this.range = range;
    this.placeRange();
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

  setSelected(key: string | null, animation: number | null = null): void {
    this.selected = key;
    this.selectedAnimation = animation;
    for (const block of this.rows.querySelectorAll<HTMLElement>('.tl-clip'))
      block.setAttribute('aria-pressed', String(block.dataset.key === key));
    for (const bar of this.rows.querySelectorAll<HTMLElement>('.tl-anim'))
      bar.setAttribute('aria-pressed', String(animation !== null && bar.dataset.index === String(animation)));
  }

  /** Draws the timeline again (after a failed edit: the block goes back). */
  redraw(): void {
    this.render();
  }

  private snapPoints(key: string): number[] {
    const edges = this.clips.filter((c) => c.key !== key).flatMap((c) => [c.start, c.end]);
    return [this.callbacks.playheadTime(), ...edges, ...this.labelTimes];
  }

  private bindRangeStrip(): void {
    let from: number | undefined;
    const frameAtPointer = (e: PointerEvent): number => Math.floor((this.timeAt(e) * this.fps.num) / this.fps.den + 1e-6);
    this.rangeStrip.addEventListener('pointerdown', (e) => {
      e.stopPropagation();
      this.rangeStrip.setPointerCapture(e.pointerId);
      from = frameAtPointer(e);
    });
    this.rangeStrip.addEventListener('pointermove', (e) => {
      if (from === undefined || !this.rangeStrip.hasPointerCapture(e.pointerId)) return;
      const to = frameAtPointer(e);
      this.callbacks.rangeDragged(Math.min(from, to), Math.max(from, to));
    });
    this.rangeStrip.addEventListener('pointerup', () => (from = undefined));
  }

  private fitPxPerSecond(): number {
    const width = this.scroll.clientWidth || 600;
    return this.duration > 0 ? (width - 2) / this.duration : 100;
  }

  private timeAt(e: MouseEvent): number {
    return timeAtX(e.clientX - this.content.getBoundingClientRect().left, this.pxPerSecond, this.duration);
  }

  private placeRange(): void {
    const pps = this.pxPerSecond;
    this.rangeBar.hidden = !this.range;
    const shades: HTMLElement[] = [];
    if (this.range) {
      const start = frameTime(this.range.in, this.fps) * pps;
      const end = frameTime(this.range.out + 1, this.fps) * pps;
      Object.assign(this.rangeBar.style, { left: `${start}px`, width: `${Math.max(2, end - start)}px` });
      shades.push(
        h('div', { className: 'tl-range-shade', attrs: { style: `left:0;width:${start}px` } }),
        h('div', { className: 'tl-range-shade', attrs: { style: `left:${end}px;right:0` } }),
      );
    }
    this.overlays.replaceChildren(...shades, ...this.animation.labels.map((label) => this.marker(label)));
  }

  private marker(label: InspectedLabel): HTMLElement {
    return h(
      'div',
      {
        className: 'tl-marker',
        title: `${label.name} (${label.timeline}) at ${label.time.toFixed(3)} s`,
        attrs: { style: `left:${label.time * this.pxPerSecond}px` },
        dataset: { label: label.name, time: String(label.time) },
      },
      h('span', {}, label.name),
    );
  }

  private render(): void {
    this.pxPerSecond = this.fitPxPerSecond() * this.zoomValue;
    const pps = this.pxPerSecond;
    this.content.style.width = `${Math.ceil(this.duration * pps) + 2}px`;
    this.ruler.replaceChildren(
      this.rangeStrip,
      this.rangeBar,
      ...rulerTicks(this.duration, pps, this.fps).map((tick) =>
        h(
          'div',
          { className: tick.major ? 'tl-tick major' : 'tl-tick', attrs: { style: `left:${tick.t * pps}px` } },
          tick.label ? h('span', {}, tick.label) : null,
        ),
      ),
    );
    const rows = trackRows(this.clips);
    const lanesOf = (owner: string | null): Lane[] => this.animation.lanes.filter((l) => l.owner === owner);
    const labels: HTMLElement[] = [h('div', { className: 'tl-label ruler-label' }, h('span', {}, 'Time'))];
    const rowEls: HTMLElement[] = [];
    const addLanes = (lanes: Lane[]): void => {
      for (const lane of lanes) {
        labels.push(
          h(
            'div',
            { className: 'tl-label lane-label', title: lane.selector, dataset: { selector: lane.selector } },
            h('span', {}, lane.label),
          ),
        );
        rowEls.push(this.laneRow(lane));
      }
    };
    for (const row of rows) {
      labels.push(this.callbacks.rowLabel(row));
      rowEls.push(
        h(
          'div',
          {
            className: 'tl-row',
            dataset: { track: row.trackIndex === undefined ? 'none' : String(row.trackIndex), row: row.id },
            attrs: { role: 'group', 'aria-label': row.label },
          },
          ...row.clips.map((clip) => this.block(clip, row.label)),
        ),
      );
      for (const clip of row.clips) addLanes(lanesOf(clip.key));
    }
    const loose = lanesOf(null);
    if (loose.length > 0) {
      labels.push(h('div', { className: 'tl-label' }, h('span', {}, 'Animations')));
      rowEls.push(h('div', { className: 'tl-row', attrs: { role: 'group', 'aria-label': 'Animations outside any clip' } }));
      addLanes(loose);
    }
    this.labels.replaceChildren(...labels);
    this.rows.replaceChildren(...rowEls);
    if (rows.length === 0 && loose.length === 0) {
      this.rows.replaceChildren(
        h(
          'p',
          { className: 'muted tl-empty' },
          'No clips and no animations found: nothing has data-start, there is no <video>, <audio> or sub-composition, and no GSAP timeline is registered in window.__timelines.',
        ),
      );
    }
    this.setSelected(this.selected, this.selectedAnimation);
    this.playhead.style.left = `${this.time * pps}px`;
    this.placeRange();
    this.drag.attach(this.content);
  }

  private laneRow(lane: Lane): HTMLElement {
    const pps = this.pxPerSecond;
    return h(
      'div',
      { className: 'tl-row lane', attrs: { role: 'group', 'aria-label': `Animations of ${lane.label}` } },
      ...lane.animations.map((a) =>
        h('button', {
          type: 'button',
          className: 'tl-anim',
          title: `${a.name}${a.timeline ? ` › ${a.timeline}` : ''}: ${a.properties || a.kind}${a.ease ? ` (${a.ease})` : ''}, ${a.start.toFixed(2)} s to ${a.end.toFixed(2)} s`,
          dataset: { index: String(a.index), kind: a.kind, start: String(a.start), end: String(a.end) },
          attrs: {
            'aria-label': `${a.kind} ${a.properties} on ${lane.label}, ${a.start.toFixed(2)} s to ${a.end.toFixed(2)} s`,
            'aria-pressed': 'false',
            style: `left:${a.start * pps}px;width:${Math.max(2, (a.end - a.start) * pps)}px`,
          },
        }),
      ),
    );
  }

  private block(clip: ViewClip, track: string): HTMLButtonElement {
    const pps = this.pxPerSecond;
    const { first, last } = clipFrames(clip.start, clip.end, this.fps);
    const span = `${clip.start.toFixed(2)} s to ${clip.end.toFixed(2)} s, frames ${first} to ${last}`;
    const kind = KIND_TEXT[clip.kind] ?? clip.kind;
    const block = h(
      'button',
      {
        type: 'button',
        className: clip.openEnded ? 'tl-clip open-ended' : 'tl-clip',
        title: `${clip.label} (${kind}): ${span}. Drag to move, drag an edge to trim (Alt: no snapping)`,
        dataset: { clipId: clip.label, key: clip.key, kind: clip.kind, start: String(clip.start), end: String(clip.end) },
        attrs: {
          'aria-label': `${clip.label}, ${kind} on ${track}, ${span}`,
          'aria-pressed': 'false',
          style: `left:${clip.start * pps}px;width:${Math.max(2, (clip.end - clip.start) * pps)}px`,
        },
      },
      h('span', { className: 'name' }, clip.label),
      h('span', { className: 'edge start', attrs: { 'aria-hidden': 'true' } }),
      h('span', { className: 'edge end', attrs: { 'aria-hidden': 'true' } }),
    );
    this.callbacks.decorate(block, clip, pps);
    return block;
  }
}
