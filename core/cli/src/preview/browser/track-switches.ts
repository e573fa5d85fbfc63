import { h } from './dom.js';
import type { StudioClip } from './studio-clips.js';
import type { TrackRow } from './timeline-layout.js';
import type { ViewClip } from './timeline-view.js';

const MUTED = 'data-seekframe-studio-muted';
const HIDDEN = 'data-seekframe-studio-hidden';

type Switch = 'mute' | 'solo' | 'hide';

/**
 * Mute, solo and hide per track, for the preview only (a render ignores them): the runtime reads
 * the markers on the clips' elements (muted sound, `visibility: hidden`). Kept across reloads
 * (by row id) and applied again to the new elements.
 */
export class TrackSwitches {
  private readonly on: Record<Switch, Set<string>> = { mute: new Set(), solo: new Set(), hide: new Set() };

  constructor(
    private readonly clips: () => readonly StudioClip[],
    private readonly changed: () => void,
  ) {}

  /** The row's label with its M / S / H buttons (the sound ones only where the row has sound). */
  label(row: TrackRow<ViewClip>): HTMLElement {
    const audible = row.clips.some((c) => c.kind === 'audio' || c.kind === 'video' || c.kind === 'composition');
    const button = (what: Switch, text: string, title: string): HTMLButtonElement => {
      const b = h(
        'button',
        {
          type: 'button',
          title: `${title} ${row.label}`,
          dataset: { switch: what, row: row.id },
          attrs: { 'aria-pressed': String(this.on[what].has(row.id)) },
        },
        text,
      );
      b.addEventListener('click', () => this.toggle(what, row.id));
      return b;
    };
    return h(
      'div',
      { className: 'tl-label', title: row.label },
      h('span', {}, row.label),
      audible ? button('mute', 'M', 'Mute') : null,
      audible ? button('solo', 'S', 'Solo') : null,
      button('hide', 'H', 'Hide'),
    );
  }

  toggle(what: Switch, row: string): void {
    const set = this.on[what];
    if (set.has(row)) set.delete(row);
    else set.add(row);
    this.apply();
    this.changed();
  }

  /** Marks the elements of the current clips (call after every reload). */
  apply(): void {
    const solo = this.on.solo.size > 0;
    const mutedKeys = new Set<string>();
    for (const clip of this.clips()) {
      const row = `${clip.group ?? ''}|${clip.trackIndex ?? 'none'}`;
      // A clip of a sub-composition is silent when its instance's row is.
      const muted =
        this.on.mute.has(row) || (solo && !this.on.solo.has(row) && !clip.group) || (clip.group !== undefined && mutedKeys.has(clip.group));
      if (muted) mutedKeys.add(clip.key);
      for (const el of mediaIn(clip.element)) el.toggleAttribute(MUTED, muted);
      clip.element.toggleAttribute(HIDDEN, this.on.hide.has(row));
    }
  }
}

/** The element, its media and the media of the sub-compositions inside it. */
function mediaIn(el: Element): Element[] {
  const out: Element[] = [el, ...el.querySelectorAll('video, audio')];
  for (const frame of el.querySelectorAll('iframe')) {
    const root = frame.contentDocument?.documentElement;
    if (root) out.push(...root.querySelectorAll('video, audio'));
  }
  return out;
}
