import type { SeekframePlayer } from '@seekframe/player';
import { element } from './dom.js';

const STORE = 'seekframe-studio-layout';

/**
 * The studio's layout: the picture fits its box (which follows the window), or shows at 100 %
 * with scroll bars; full screen; a checkerboard behind transparent pixels; two splitters that
 * resize the side panel and the player, remembered in localStorage.
 */
export class ViewerLayout {
  private native = { width: 0, height: 0 };
  private actualSize = false;
  private readonly box = element('player-box');

  constructor(private readonly player: SeekframePlayer) {
    new ResizeObserver(() => this.fit()).observe(this.box);
    element('view-fit').addEventListener('click', () => this.setActualSize(false));
    element('view-100').addEventListener('click', () => this.setActualSize(true));
    element('view-checker').addEventListener('click', (e) => {
      const on = document.body.classList.toggle('checker');
      (e.currentTarget as HTMLElement).setAttribute('aria-pressed', String(on));
    });
    element('view-fullscreen').addEventListener('click', () => this.toggleFullscreen());
    const saved = readSaved();
    const root = document.documentElement.style;
    if (saved.aside) root.setProperty('--aside-width', `${saved.aside}px`);
    if (saved.player) root.setProperty('--player-height', `${saved.player}px`);
    splitter(
      element('split-aside'),
      'x',
      (dx, start) => {
        const width = clamp(start - dx, 220, window.innerWidth - 320);
        root.setProperty('--aside-width', `${width}px`);
        save({ aside: width });
      },
      () => element('main').querySelector('aside')!.getBoundingClientRect().width,
    );
    splitter(
      element('split-player'),
      'y',
      (dy, start) => {
        const height = clamp(start + dy, 120, window.innerHeight - 160);
        root.setProperty('--player-height', `${height}px`);
        save({ player: height });
      },
      () => this.box.getBoundingClientRect().height,
    );
  }

  /** The composition's own size (from project.json). */
  setNativeSize(width: number, height: number): void {
    this.native = { width, height };
    this.fit();
  }

  setActualSize(on: boolean): void {
    this.actualSize = on;
    this.box.classList.toggle('actual-size', on);
    element('view-100').setAttribute('aria-pressed', String(on));
    element('view-fit').setAttribute('aria-pressed', String(!on));
    this.fit();
  }

  toggleFullscreen(): void {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void this.box.requestFullscreen?.().catch(() => undefined);
  }

  private fit(): void {
    const { width, height } = this.native;
    if (!width || !height) return;
    if (this.actualSize) {
      this.player.setAttribute('width', String(width));
      this.player.setAttribute('height', String(height));
      return;
    }
    const room = { width: Math.max(1, this.box.clientWidth), height: Math.max(1, this.box.clientHeight) };
    const scale = Math.min(room.width / width, room.height / height);
    this.player.setAttribute('width', String(Math.max(1, Math.floor(width * scale))));
    this.player.setAttribute('height', String(Math.max(1, Math.floor(height * scale))));
  }
}

function clamp(value: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(Math.max(lo, hi), value));
}

function readSaved(): { aside?: number; player?: number } {
  try {
    return JSON.parse(localStorage.getItem(STORE) ?? '{}') as { aside?: number; player?: number };
  } catch {
    return {};
  }
}

function save(part: { aside?: number; player?: number }): void {
  try {
    localStorage.setItem(STORE, JSON.stringify({ ...readSaved(), ...part }));
  } catch {
    // Storage may be off (private mode): the layout just is not remembered.
  }
}

/** Drag (or arrow keys on) a splitter; `apply(moved, sizeAtStart)`. */
function splitter(bar: HTMLElement, axis: 'x' | 'y', apply: (moved: number, start: number) => void, size: () => number): void {
  let origin: { at: number; size: number } | undefined;
  bar.addEventListener('pointerdown', (e) => {
    bar.setPointerCapture(e.pointerId);
    origin = { at: axis === 'x' ? e.clientX : e.clientY, size: size() };
    e.preventDefault();
  });
  bar.addEventListener('pointermove', (e) => {
    if (origin && bar.hasPointerCapture(e.pointerId)) apply((axis === 'x' ? e.clientX : e.clientY) - origin.at, origin.size);
  });
  bar.addEventListener('pointerup', () => (origin = undefined));
  bar.addEventListener('keydown', (e) => {
    const step = e.shiftKey ? 50 : 10;
    const keys: Record<string, number> = axis === 'x' ? { ArrowLeft: -step, ArrowRight: step } : { ArrowUp: -step, ArrowDown: step };
    const moved = keys[e.key];
    if (moved === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    apply(moved, size());
  });
}
