import { frameTime, type Fps } from '@seekframe/composition';
import { h } from './dom.js';
import { clipFrames } from './timeline-layout.js';
import { dragFrames, type DragMode, type DragResult } from './timeline-snap.js';

/** A finished drag: the block `key` should now cover frames `[startFrame, endFrame)`. */
export interface BlockEdit extends DragResult {
  key: string;
  mode: DragMode;
}

export interface DragHost {
  pxPerSecond(): number;
  fps(): Fps;
  frameCount(): number;
  /** Snap points in seconds for a drag of `key` (playhead, other blocks' edges, labels). */
  snaps(key: string): number[];
  /** Whether the block may be edited (it is written in a file); the reason when not. */
  editable(key: string): string | null;
  commit(edit: BlockEdit): void;
  refuse(message: string): void;
}

/** Pixels the pointer must move before a press on a block becomes a drag (a click selects). */
const DRAG_THRESHOLD = 3;

/**
 * Drags blocks of the timeline: the middle moves a block, its edges (5 px) trim it; whole frames,
 * snapping to the host's points unless Alt is held. The block follows the pointer; the edit is
 * committed on release, and the click that follows a drag is swallowed.
 */
export class TimelineDrag {
  private active:
    | {
        block: HTMLElement;
        key: string;
        mode: DragMode;
        x: number;
        pointer: number;
        from: { first: number; end: number };
        moved: boolean;
        result?: DragResult;
      }
    | undefined;
  private swallowClick = false;
  private readonly guide = h('div', { className: 'tl-snap', hidden: true });

  constructor(
    rows: HTMLElement,
    content: HTMLElement,
    private readonly host: DragHost,
  ) {
    content.append(this.guide);
    rows.addEventListener('pointerdown', (e) => this.down(e));
    rows.addEventListener('pointermove', (e) => this.move(e));
    rows.addEventListener('pointerup', (e) => this.up(e));
    rows.addEventListener('pointercancel', () => this.cancel());
    rows.addEventListener(
      'click',
      (e) => {
        if (!this.swallowClick) return;
        this.swallowClick = false;
        e.stopImmediatePropagation();
        e.preventDefault();
      },
      true,
    );
  }

  /** The guide element is recreated content-side by the view's render; keep it attached. */
  attach(content: HTMLElement): void {
    if (!this.guide.isConnected) content.append(this.guide);
  }

  private down(e: PointerEvent): void {
    const block = (e.target as Element).closest<HTMLElement>('.tl-clip');
    if (!block || e.button !== 0) return;
    const edge = (e.target as Element).closest<HTMLElement>('.edge');
    const mode: DragMode = edge ? (edge.classList.contains('start') ? 'trim-start' : 'trim-end') : 'move';
    const fps = this.host.fps();
    const { first, last } = clipFrames(Number(block.dataset.start), Number(block.dataset.end), fps);
    this.active = {
      block,
      key: block.dataset.key as string,
      mode,
      x: e.clientX,
      pointer: e.pointerId,
      from: { first, end: last + 1 },
      moved: false,
    };
  }

  private move(e: PointerEvent): void {
    const drag = this.active;
    if (!drag || e.pointerId !== drag.pointer) return;
    if (!drag.moved) {
      if (Math.abs(e.clientX - drag.x) < DRAG_THRESHOLD) return;
      const why = this.host.editable(drag.key);
      if (why) {
        this.active = undefined;
        this.host.refuse(why);
        return;
      }
      drag.moved = true;
      drag.block.setPointerCapture(e.pointerId);
      drag.block.classList.add('dragging');
    }
    const pps = this.host.pxPerSecond();
    const fps = this.host.fps();
    const result = dragFrames({
      mode: drag.mode,
      startFrame: drag.from.first,
      endFrame: drag.from.end,
      delta: (e.clientX - drag.x) / pps,
      snaps: e.altKey ? [] : this.host.snaps(drag.key),
      pxPerSecond: pps,
      frameCount: this.host.frameCount(),
      fps,
    });
    drag.result = result;
    const start = frameTime(result.startFrame, fps);
    const end = frameTime(result.endFrame, fps);
    drag.block.style.left = `${start * pps}px`;
    drag.block.style.width = `${Math.max(2, (end - start) * pps)}px`;
    drag.block.title = `frames ${result.startFrame} to ${result.endFrame - 1} (${start.toFixed(3)} s to ${end.toFixed(3)} s)`;
    this.guide.hidden = result.snappedTo === undefined;
    if (result.snappedTo !== undefined) this.guide.style.left = `${result.snappedTo * pps}px`;
  }

  private up(e: PointerEvent): void {
    const drag = this.active;
    if (!drag || e.pointerId !== drag.pointer) return;
    this.active = undefined;
    this.guide.hidden = true;
    if (!drag.moved) return;
    this.swallowClick = true;
    drag.block.classList.remove('dragging');
    const result = drag.result;
    if (result && (result.startFrame !== drag.from.first || result.endFrame !== drag.from.end))
      this.host.commit({ ...result, key: drag.key, mode: drag.mode });
  }

  private cancel(): void {
    this.active?.block.classList.remove('dragging');
    this.active = undefined;
    this.guide.hidden = true;
  }
}
