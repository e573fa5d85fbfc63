import { SeekframeError, toSeekframeError, type SeekframeErrorData } from '@seekframe/composition';
import { loadFrame, type LoadedFrame } from './load-frame.js';
import { PlayClock, type PlayRange } from './play-clock.js';
import type { TimelineClip } from '@seekframe/runtime';
import { compositionBox, elementsAtPoint, placeOutline } from './element-outline.js';
import { fitPlayerBox, parseLength } from './player-box.js';
import { createControls } from './player-controls.js';
import { SeekPump } from './seek-pump.js';
import { PLAYER_STYLE } from './player-style.js';
import { checkedVariables, variablesFromAttribute } from './player-variables.js';

/**
 * `<seekframe-player src="comp/index.html">`: plays a composition in a same-origin
 * iframe. Playback never runs the page's own clock: a requestAnimationFrame loop in this window
 * calls the runtime's `seek(t)` (one seek in flight, frames dropped when the page is slow), the
 * same call the renderer makes per frame, so the picture at t is the rendered frame at t.
 * Audio: the player tells the runtime "playing / paused / muted" (`setPlayback`); the runtime plays
 * the audible clips in sync with the seeks. A refused play() fires `audioblocked`, never `error`.
 */
export class SeekframePlayer extends HTMLElement {
  static readonly observedAttributes = ['src', 'variables', 'width', 'height', 'controls', 'muted'];

  private readonly stage: HTMLDivElement;
  private readonly message: HTMLDivElement;
  private readonly outline: HTMLDivElement;
  private outlined: Element | null = null;
  /** Composition pixels -> stage pixels, as set by layout(). */
  private placement = { left: 0, top: 0, scale: 1 };
  private controlsBar: HTMLElement | undefined;
  private frame: LoadedFrame | undefined;
  private pump: SeekPump | undefined;
  private readonly clock = new PlayClock();
  private loadAbort: AbortController | undefined;
  private loadQueued = false;
  private variablesValue: Record<string, unknown> | undefined;
  private time = 0;
  private playing = false;
  private playWhenReady = false;
  private rate = 1;
  private range: PlayRange | null = null;
  private rafId = 0;
  private lastError: SeekframeErrorData | undefined;
  private pageErrorsSeen = 0;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    const style = document.createElement('style');
    style.textContent = PLAYER_STYLE;
    this.stage = document.createElement('div');
    this.stage.className = 'stage';
    this.stage.setAttribute('part', 'stage');
    this.message = document.createElement('div');
    this.message.className = 'message';
    this.message.hidden = true;
    this.outline = document.createElement('div');
    this.outline.className = 'highlight';
    this.outline.setAttribute('part', 'highlight');
    this.outline.hidden = true;
    this.stage.append(this.message, this.outline);
    shadow.append(style, this.stage);
  }

  get src(): string {
    return this.getAttribute('src') ?? '';
  }
  set src(value: string) {
    this.setAttribute('src', value);
  }
  get autoplay(): boolean {
    return this.hasAttribute('autoplay');
  }
  set autoplay(on: boolean) {
    this.toggleAttribute('autoplay', on);
  }
  get loop(): boolean {
    return this.hasAttribute('loop');
  }
  set loop(on: boolean) {
    this.toggleAttribute('loop', on);
  }
  get muted(): boolean {
    return this.hasAttribute('muted');
  }
  set muted(on: boolean) {
    this.toggleAttribute('muted', on);
  }
  get controls(): boolean {
    return this.hasAttribute('controls');
  }
  set controls(on: boolean) {
    this.toggleAttribute('controls', on);
  }
  /** Top-level variable overrides; setting them reloads the composition at the current time. */
  get variables(): Record<string, unknown> | undefined {
    return this.variablesValue ? { ...this.variablesValue } : undefined;
  }
  set variables(value: Record<string, unknown> | undefined) {
    try {
      this.variablesValue = checkedVariables(value);
    } catch (error) {
      this.fail(error);
      return;
    }
    this.scheduleLoad(true);
  }
  get currentTime(): number {
    return this.time;
  }
  set currentTime(t: number) {
    void this.seek(t).catch(() => undefined);
  }
  /** Seconds of composition per second of playback; negative plays backwards (not 0). */
  get playbackRate(): number {
    return this.rate;
  }
  set playbackRate(value: number) {
    const rate = Number(value);
    if (!Number.isFinite(rate) || rate === 0 || Math.abs(rate) > 64) return;
    this.rate = rate;
    if (this.playing) this.clock.start(this.time, performance.now(), rate);
    this.applyPlayback();
    this.emit('ratechange', { playbackRate: rate });
  }
  /** While set, playback stays in `[start, end)` seconds and loops there (a work area); null plays the whole composition. */
  get playRange(): PlayRange | null {
    return this.range ? { ...this.range } : null;
  }
  set playRange(value: PlayRange | null) {
    const ok = value && Number.isFinite(value.start) && Number.isFinite(value.end) && value.end > value.start;
    this.range = ok ? { start: Math.max(0, value.start), end: value.end } : null;
  }
  /** True while the outline of `highlight()` is drawn (the element has a box at this time). */
  get outlineShown(): boolean {
    return !this.outline.hidden;
  }
  get duration(): number {
    return this.frame?.duration ?? 0;
  }
  get paused(): boolean {
    return !this.playing;
  }
  /** The last error (also sent as an `error` event), or undefined. */
  get error(): SeekframeErrorData | undefined {
    return this.lastError;
  }
  /** The composition's window (same origin), e.g. for tests and tools; undefined before `ready`. */
  get contentWindow(): Window | null {
    return this.frame?.iframe.contentWindow ?? null;
  }

  connectedCallback(): void {
    this.layout();
    if (!this.frame) this.scheduleLoad(false);
  }

  disconnectedCallback(): void {
    this.stopLoop();
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (old === value) return;
    if (name === 'src') this.scheduleLoad(false);
    else if (name === 'variables') this.variablesFromAttribute(value);
    else if (name === 'controls') this.toggleControls();
    else if (name === 'muted') this.applyPlayback();
    else this.layout();
  }

  play(): void {
    if (!this.frame || !this.pump) {
      this.playWhenReady = true;
      return;
    }
    if (this.playing) return;
    const range = this.range;
    if (range && (this.time < range.start || this.time >= range.end)) this.time = this.rate > 0 ? range.start : range.end;
    else if (!this.loop && this.rate > 0 && this.time >= this.duration) this.time = 0;
    else if (!this.loop && this.rate < 0 && this.time <= 0) this.time = this.duration;
    this.clock.start(this.time, performance.now(), this.rate);
    this.playing = true;
    this.rafId = requestAnimationFrame(this.tick);
    this.applyPlayback();
    this.emit('play');
  }

  pause(): void {
    this.playWhenReady = false;
    if (!this.playing) return;
    this.stopLoop();
    this.emit('pause');
  }

  /** Shows time `t` (seconds, clamped to the duration); resolves once that frame is ready. */
  seek(t: number): Promise<void> {
    if (!this.pump)
      return Promise.reject(
        new SeekframeError('not-ready', '<seekframe-player> has no composition loaded yet; wait for the ready event', { stage: 'load' }),
      );
    const target = Math.min(Math.max(0, Number(t) || 0), this.duration);
    if (this.playing) this.clock.start(target, performance.now(), this.rate);
    return this.pump.request(target);
  }

  /**
   * The loaded composition's clips with their resolved timing, from its runtime (the same
   * resolution the seeks use); empty before `ready`. See `SeekframeRuntime.timeline()`.
   */
  timeline(): TimelineClip[] {
    return this.frame?.runtime.timeline?.() ?? [];
  }

  /**
   * Outlines an element of the composition (e.g. a clip from `timeline()`) over the picture, and
   * keeps the outline on it as time moves; dashed while the element is hidden. null removes it.
   */
  highlight(element: Element | null): void {
    this.outlined = element;
    this.placeOutline();
  }

  /**
   * The composition's elements under a point of this page (client pixels), topmost first, through
   * sub-compositions (their elements before the frame that holds them); empty off the picture.
   */
  elementsAt(clientX: number, clientY: number): Element[] {
    const win = this.frame?.iframe.contentWindow;
    if (!win) return [];
    const stage = this.stage.getBoundingClientRect();
    const { left, top, scale } = this.placement;
    return elementsAtPoint(win, (clientX - stage.left - left) / scale, (clientY - stage.top - top) / scale);
  }

  private placeOutline(): void {
    const win = this.frame?.iframe.contentWindow;
    placeOutline(this.outline, this.outlined && win ? compositionBox(this.outlined, win) : undefined, this.placement);
  }

  /** Loads the composition again (e.g. after its files changed), keeping time and play state. */
  reload(): void {
    this.scheduleLoad(true);
  }

  private readonly tick = (now: number): void => {
    if (!this.playing || !this.pump) return;
    this.rafId = requestAnimationFrame(this.tick);
    if (this.pump.busy) return; // the page is still painting the last frame: drop this one
    const { time, ended } = this.clock.at(now, this.duration, this.loop, this.range ?? undefined);
    this.pump.request(time).then(
      () => {
        if (ended && this.playing) {
          this.stopLoop();
          this.emit('pause');
          this.emit('ended');
        }
      },
      (error: unknown) => this.fail(error),
    );
  };

  private stopLoop(): void {
    this.playing = false;
    cancelAnimationFrame(this.rafId);
    this.applyPlayback();
  }

  private variablesFromAttribute(value: string | null): void {
    try {
      this.variables = variablesFromAttribute(value);
    } catch (error) {
      this.fail(error);
    }
  }

  /** Attribute changes in one task (src + variables from markup) cause one load. */
  private scheduleLoad(keepTime: boolean): void {
    if (this.loadQueued) return;
    this.loadQueued = true;
    queueMicrotask(() => {
      this.loadQueued = false;
      void this.load(keepTime && this.frame !== undefined);
    });
  }

  /** Loads into a hidden new frame and swaps it in when it shows the right time: no blank flash. */
  private async load(keepTime: boolean): Promise<void> {
    if (!this.src || !this.isConnected) return;
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    if (!keepTime) {
      this.stopLoop();
      this.time = 0;
    }
    try {
      const frame = await loadFrame(this.stage, this.src, this.variablesValue, abort.signal);
      frame.iframe.classList.add('loading');
      if (abort.signal.aborted) return frame.iframe.remove();
      const at = Math.min(this.time, frame.duration);
      await frame.runtime.seek(at);
      if (abort.signal.aborted) return frame.iframe.remove();
      this.frame?.iframe.remove();
      frame.iframe.classList.remove('loading');
      this.frame = frame;
      this.pump = new SeekPump(
        (t) => frame.runtime.seek(t),
        (t) => {
          this.time = t;
          this.placeOutline();
          this.emit('timeupdate', { currentTime: t });
          this.reportPageErrors();
        },
      );
      this.pageErrorsSeen = 0;
      this.time = at;
      this.lastError = undefined;
      this.message.hidden = true;
      this.applyPlayback();
      this.layout();
      this.emit('ready', { duration: frame.duration, width: frame.width, height: frame.height });
      this.emit('timeupdate', { currentTime: at });
      if (this.reportPageErrors()) return;
      if (this.playing) this.clock.start(at, performance.now(), this.rate);
      else if (this.playWhenReady || (!keepTime && this.autoplay)) this.play();
      this.playWhenReady = false;
    } catch (error) {
      if (!abort.signal.aborted) this.fail(error);
    }
  }

  private layout(): void {
    const native = this.frame ? { width: this.frame.width, height: this.frame.height } : { width: 300, height: 150 };
    const box = fitPlayerBox(native, { width: parseLength(this.getAttribute('width')), height: parseLength(this.getAttribute('height')) });
    Object.assign(this.stage.style, { width: `${box.width}px`, height: `${box.height}px` });
    if (this.frame) {
      const left = (box.width - native.width * box.scale) / 2;
      const top = (box.height - native.height * box.scale) / 2;
      this.frame.iframe.style.transform = `translate(${left}px, ${top}px) scale(${box.scale})`;
      this.placement = { left, top, scale: box.scale };
    }
    this.placeOutline();
  }

  private toggleControls(): void {
    if (this.controls && !this.controlsBar) {
      this.controlsBar = createControls(this);
      this.shadowRoot?.append(this.controlsBar);
    } else if (!this.controls && this.controlsBar) {
      this.controlsBar.remove();
      this.controlsBar = undefined;
    }
  }

  /** Tells the composition's runtime whether its audio plays and is muted (it keeps it in sync). */
  private applyPlayback(): void {
    this.frame?.runtime.setPlayback({ playing: this.playing, muted: this.muted, onBlocked: this.onAudioBlocked });
  }

  /** The browser refused to start a clip's audio (autoplay policy): playback goes on silently. */
  private readonly onAudioBlocked = (src: string): void => {
    this.emit('audioblocked', { src });
  };

  /** An author script threw (a render would fail on it): report each new one once. */
  private reportPageErrors(): boolean {
    const errors = this.frame?.runtime.errors() ?? [];
    if (errors.length <= this.pageErrorsSeen) return false;
    this.pageErrorsSeen = errors.length;
    this.fail(
      new SeekframeError(
        'page-script-error',
        `The composition threw: ${errors.at(-1) ?? ''}. A render fails on this too; fix the script.`,
        {
          stage: 'capture',
          details: { errors },
        },
      ),
    );
    return true;
  }

  private fail(error: unknown): void {
    const data = toSeekframeError(error, { code: 'player-failed', stage: 'load' }).toJSON();
    this.lastError = data;
    this.stopLoop();
    this.message.textContent = data.message;
    this.message.hidden = false;
    this.emit('error', data);
  }

  private emit(type: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
