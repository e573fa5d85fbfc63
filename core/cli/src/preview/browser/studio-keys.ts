import { frameAt } from '@seekframe/composition';
import { bindKeys, spaceIsTheControls } from './keyboard.js';
import type { StudioClip } from './studio-clips.js';
import { clipFrames } from './timeline-layout.js';
import type { TimelineView } from './timeline-view.js';
import type { Transport } from './transport.js';
import type { ViewerLayout } from './viewer-layout.js';

export interface StudioKeysHost {
  transport: Transport;
  timeline: TimelineView;
  layout: ViewerLayout;
  selectedClip(): StudioClip | undefined;
  clearSelection(): void;
  setRange(range: { in: number; out: number } | null): void;
  undo(): void;
  redo(): void;
  /** Moves the selected block by whole frames (written to its file like a drag). */
  nudge(frames: number): void;
}

/** The studio's keyboard shortcuts (the page's "Keyboard shortcuts" list says the same). */
export function bindStudioKeys(host: StudioKeysHost): void {
  const { transport, timeline } = host;
  const step = (sign: 1 | -1) => (e: KeyboardEvent) => transport.step(sign * (e.shiftKey ? transport.secondFrames() : 1));
  const label = (sign: 1 | -1) => (e: KeyboardEvent) => {
    if (!e.shiftKey) return false;
    const now = transport.currentFrame();
    const frames = timeline.labelTimes.map((t) => frameAt(t + 1e-9, transport.fps));
    const next = sign > 0 ? frames.find((f) => f > now) : [...frames].reverse().find((f) => f < now);
    if (next !== undefined) transport.goToFrame(next);
  };
  const edge = (which: 'first' | 'last') => () => {
    const clip = host.selectedClip();
    if (!clip) return false;
    transport.goToFrame(clipFrames(clip.start, clip.end, transport.fps)[which]);
  };
  bindKeys(
    {
      ' ': (e) => (spaceIsTheControls(e.target) ? false : transport.togglePlay()),
      ArrowRight: step(1),
      ArrowLeft: step(-1),
      ArrowUp: label(-1),
      ArrowDown: label(1),
      Home: () => transport.goToFrame(0),
      End: () => transport.goToFrame(transport.lastFrame()),
      '+': () => timeline.zoomBy(1),
      '=': () => timeline.zoomBy(1),
      '-': () => timeline.zoomBy(-1),
      '0': () => timeline.setZoom(1),
      '[': edge('first'),
      ']': edge('last'),
      j: () => transport.shuttle(-1),
      k: () => transport.shuttle(0),
      l: () => transport.shuttle(1),
      i: () => {
        const now = transport.currentFrame();
        const r = transport.range;
        host.setRange({ in: now, out: r && r.out >= now ? r.out : transport.lastFrame() });
      },
      o: () => {
        const now = transport.currentFrame();
        const r = transport.range;
        host.setRange({ in: r && r.in <= now ? r.in : 0, out: now });
      },
      x: () => host.setRange(null),
      ',': (e) => host.nudge(-(e.shiftKey ? transport.secondFrames() : 1)),
      '.': (e) => host.nudge(e.shiftKey ? transport.secondFrames() : 1),
      '<': () => host.nudge(-transport.secondFrames()),
      '>': () => host.nudge(transport.secondFrames()),
      f: () => host.layout.toggleFullscreen(),
      Escape: () => host.clearSelection(),
    },
    {
      z: (e) => (e.shiftKey ? host.redo() : host.undo()),
      y: () => host.redo(),
    },
  );
}
