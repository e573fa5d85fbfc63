import type { SeekframePlayer } from '@seekframe/player';
import { element } from './dom.js';
import { clipHolding, type StudioClip } from './studio-clips.js';

/**
 * Clicks on the picture: the topmost clip under the pointer is selected (and outlined); Alt-click
 * goes to the next clip stacked under the same point, round and round. A transparent layer over
 * the player takes the clicks (the composition's frame would otherwise get them).
 */
export function bindPicturePick(
  player: SeekframePlayer,
  clips: () => readonly StudioClip[],
  selected: () => string | null,
  select: (key: string | null) => void,
): void {
  element('pick-layer').addEventListener('click', (e) => {
    const stack: StudioClip[] = [];
    for (const el of player.elementsAt(e.clientX, e.clientY)) {
      const clip = clipHolding(clips(), el);
      if (clip && !stack.includes(clip)) stack.push(clip);
    }
    if (stack.length === 0) return select(null);
    const at = stack.findIndex((c) => c.key === selected());
    select((e.altKey && at >= 0 ? stack[(at + 1) % stack.length] : stack[0])!.key);
  });
}
