import { SeekframeError, type VariableDeclaration } from '@seekframe/composition';
import type {
  FrameProbe,
  FrameProbeRequest,
  MediaClip,
  PlaybackState,
  RuntimeWarning,
  TimelineClip,
  TimelineInspection,
  VideoFrameMap,
} from '../runtime-types.js';
import { AnimationSeeker } from './animation-seeker.js';
import { attachCaptions, type CaptionElements } from './caption-elements.js';
import { ColorGradingPass } from './color-grading/color-grading-pass.js';
import { applyVisibility, describeElement, isActive, resolveClips, type Clip } from './clip-timeline.js';
import type { ErrorLog } from './error-log.js';
import { mediaSrc, naturalDuration, seekMediaElement, waitForMetadata } from './media-elements.js';
import { MediaPlayback } from './media-playback.js';
import { PendingSet } from './pending-set.js';
import { nextMacrotask } from './real-timers.js';
import { EmbeddedFrame } from './embedded-frame.js';
import { findCompositionRoot } from './composition-root.js';
import { SubComposition } from './sub-composition.js';
import { findContentTemplate, instantiateTemplate } from './template-content.js';
import { VideoFrameOverlay } from './video-frame-overlay.js';
import type { VirtualClock } from './virtual-clock.js';
import { inspectTimeline } from './timeline-inspection.js';
import { withNested } from './nested-reports.js';
import { describeMediaClips, describeTimeline } from './clip-descriptions.js';
import { showsSomething } from './shows-something.js';
import { probeFrame } from './frame-probe.js';
import { hideText } from './text-hiding.js';
import { waitForDomContentLoaded, waitForWindowLoad, waitForFonts, decodeImages } from './page-readiness.js';

export interface PageSettings {
  mode: 'render' | 'preview';
  seed: number;
  epochMs: number;
  fps: number;
  width: number;
  height: number;
  /** Undefined until known (root element parsed) for documents without injected metadata. */
  duration: () => number;
  variables: Record<string, unknown>;
  declarations: VariableDeclaration[];
  /** A problem found at start (bad config); `ready` rejects with it. */
  startupError: SeekframeError | undefined;
  /** Library scripts of the host's `<head>`, loaded before a `<template>` child's own scripts. */
  inheritScripts: readonly string[];
  /**
   * Called once the page's scripts ran with the length of the timeline it registered in
   * `window.__timelines`; used only when nothing static (host, root) gave the composition a length.
   */
  adoptTimelineLength(seconds: number | undefined): void;
}

/**
 * One document's runtime: clip timing, animations, media, sub-compositions and the seek queue.
 * Every composition instance (top level or iframe child) has its own.
 */
export class PageRuntime {
  readonly pending = new PendingSet();
  private clips: Clip[] = [];
  private readonly subs: SubComposition[] = [];
  private readonly frames: EmbeddedFrame[] = [];
  private readonly warningList: RuntimeWarning[] = [];
  private readonly overlays = new Map<HTMLVideoElement, VideoFrameOverlay>();
  private readonly callbacks = new Set<(t: number) => void | Promise<void>>();
  private readonly grading: ColorGradingPass;
  private readonly animations: AnimationSeeker;
  private captions: CaptionElements | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private currentTime = 0;
  /** Preview only: audible clips play while the player plays (undefined in render mode). */
  private readonly playback: MediaPlayback | undefined;
  private readonly prepared: Promise<void>;
  readonly ready: Promise<void>;

  constructor(
    private readonly win: Window,
    readonly settings: PageSettings,
    private readonly clock: VirtualClock,
    private readonly log: ErrorLog,
  ) {
    this.animations = new AnimationSeeker(
      win,
      (key) => this.compositionStart(key),
      (error, where) => this.log.addError(error, where),
    );
    this.playback = settings.mode === 'preview' ? new MediaPlayback() : undefined;
    this.grading = new ColorGradingPass(win, settings);
    this.prepared = this.prepare();
    this.ready = this.prepared.then(() => this.enqueue(0));
    // `ready` is also awaited by the engine; without this a rejection would count as an author error.
    this.ready.catch(() => undefined);
  }

  private async prepare(): Promise<void> {
    if (this.settings.startupError) throw this.settings.startupError;
    const doc = this.win.document;
    await this.pending.track('DOMContentLoaded', waitForDomContentLoaded(doc));
    const template = findContentTemplate(doc);
    if (template) {
      await this.pending.track(
        '<template> scripts',
        instantiateTemplate(template, { inheritScripts: this.settings.inheritScripts, onScriptError: (message) => this.log.add(message) }),
      );
    }
    this.quietMedia(doc);
    this.createSubCompositions(doc);
    for (const img of doc.images) if (img.loading === 'lazy') img.loading = 'eager';
    // Start decoding now, so pending() names a stuck image rather than only the load event.
    const earlyImages = decodeImages(doc, this.pending);
    earlyImages.catch(() => undefined);
    await this.pending.track('window load event', waitForWindowLoad(this.win));
    // Author scripts often register timelines from load handlers or a setTimeout(0) after them.
    await nextMacrotask();
    // Without data-duration: the registered timeline's length, else where the animations end.
    this.settings.adoptTimelineLength(
      this.animations.timelineLength(findCompositionRoot(doc).getAttribute('data-composition-id') ?? undefined) ??
        this.animations.animationsLength(),
    );
    const frames = this.attachFrames(doc);
    this.captions = attachCaptions(doc, this.settings.variables, this.log);
    // Again: author scripts may have added media since DOMContentLoaded.
    const media = this.quietMedia(doc);
    const metadata = Promise.all(
      media.map(async (el) => {
        const result = await this.pending.track(`${describeElement(el)} metadata`, waitForMetadata(el));
        if (!result.ok && el.getAttribute('data-duration') === null) {
          throw new SeekframeError(
            'asset-not-found',
            `${describeElement(el)} in ${doc.location.href} could not be loaded (${result.reason ?? 'unknown error'}), so its duration is unknown; fix the src or add data-duration`,
            { stage: 'media' },
          );
        }
      }),
    );
    await Promise.all([
      this.pending.track('fonts', waitForFonts(doc)),
      ...(this.captions ? [this.pending.track('caption fonts', this.captions.loadFonts(doc))] : []),
      earlyImages,
      decodeImages(doc, this.pending),
      metadata,
      ...this.subs.map((sub) => this.pending.track(`sub-composition "${sub.id}" (${sub.src})`, sub.ready)),
      ...frames.map((frame) => this.pending.track(`iframe ${frame.src}`, frame.runtime.ready)),
    ]);
    const subByHost = new Map(this.subs.map((sub) => [sub.host as HTMLElement, sub]));
    this.clips = resolveClips(doc, this.settings.duration(), (el, kind) => {
      if (kind === 'video' || kind === 'audio') {
        const natural = naturalDuration(el as HTMLMediaElement);
        const trim = Number(el.getAttribute('data-media-start') ?? 0) || 0;
        return natural === undefined ? undefined : Math.max(0, natural - trim);
      }
      return subByHost.get(el)?.duration;
    });
    for (const sub of this.subs) this.checkSubComposition(sub);
    await this.pending.track('colour grading (data-color-grading, LUT files)', this.grading.prepare());
  }

  /** Same-origin `<iframe>` pages that are not sub-compositions: their clocks follow our seeks. */
  private attachFrames(doc: Document): EmbeddedFrame[] {
    const own = new Set(this.subs.map((sub) => sub.iframe));
    for (const iframe of doc.querySelectorAll('iframe')) {
      if (own.has(iframe) || iframe.hasAttribute('data-seekframe-overlay')) continue;
      const frame = EmbeddedFrame.attach(iframe);
      if (typeof frame !== 'string') {
        this.frames.push(frame);
        continue;
      }
      const src = iframe.getAttribute('src') ?? '';
      this.warn(
        'clip-source-unreadable',
        `${describeElement(iframe)} in ${doc.location.href}: ${frame}; it is captured as it is, not frame-exact`,
        { element: describeElement(iframe), src, file: doc.location.href },
      );
    }
    return this.frames;
  }

  /** A host that ends up with nothing to show is a warning, not a silently empty region. */
  private checkSubComposition(sub: SubComposition): void {
    const where = { host: describeElement(sub.host), src: sub.src, file: this.win.document.location.href };
    const clip = this.clips.find((c) => c.el === sub.host);
    const box = sub.host.getBoundingClientRect();
    let problem: string | undefined;
    if (clip && clip.end <= clip.start) {
      problem = `lasts 0 s: neither the host nor the file's root has data-duration and the file registers no timeline with a length in window.__timelines; add data-duration to the host`;
    } else if (box.width === 0 || box.height === 0) {
      problem = `has a zero-size box (${box.width}x${box.height}); give the host a width and height (CSS, or data-width/data-height on the file's root)`;
    } else if (!showsSomething(sub.iframe.contentDocument)) {
      problem = `shows nothing: the file's <body> has no visible content (an empty file, or a <template> without a data-composition-id root)`;
    }
    if (problem) this.warn('sub-composition-empty', `Sub-composition "${sub.id}" (${sub.src}) ${problem}`, where);
  }

  private warn(code: string, message: string, details: Record<string, string>): void {
    if (!this.warningList.some((w) => w.code === code && w.message === message)) this.warningList.push({ code, message, details });
  }

  warnings(): RuntimeWarning[] {
    const out = [...this.warningList];
    for (const sub of this.subs) {
      for (const w of sub.runtime?.warnings?.() ?? []) out.push({ ...w, message: `[${sub.id}] ${w.message}` });
    }
    return out;
  }

  /** Media never plays by itself: seeks move it. Render mode mutes it (the engine mixes audio). */
  private quietMedia(doc: Document): HTMLMediaElement[] {
    const media = [...doc.querySelectorAll<HTMLMediaElement>('video, audio')];
    for (const el of media) {
      el.autoplay = false;
      if (this.settings.mode === 'render') el.muted = true;
      if (!el.paused) el.pause();
    }
    return media;
  }

  private createSubCompositions(doc: Document): void {
    const hosts = [...doc.querySelectorAll<HTMLElement>('[data-composition-src]')];
    hosts.forEach((host, index) => {
      // A host inside another host's original content is replaced along with it.
      if (host.parentElement?.closest('[data-composition-src]')) return;
      const sub = new SubComposition(host, index, this.settings);
      sub.ready.catch(() => undefined);
      this.subs.push(sub);
    });
  }

  /** Start of an inline composition element (for `__timelines[id]`); 0 for the root. */
  private compositionStart(key: string): number {
    const clip = this.clips.find((c) => c.kind === 'composition' && c.id === key && !c.el.hasAttribute('data-composition-src'));
    return clip ? clip.start : 0;
  }

  private enqueue(t: number): Promise<void> {
    const run = this.queue.then(() => this.performSeek(t));
    this.queue = run.catch(() => undefined);
    return run;
  }

  seek(t: number): Promise<void> {
    if (typeof t !== 'number' || Number.isNaN(t)) {
      return Promise.reject(new SeekframeError('invalid-seek', `seek() needs a number of seconds, got ${String(t)}`, { stage: 'capture' }));
    }
    return this.prepared.then(() => this.enqueue(t));
  }

  private async performSeek(requested: number): Promise<void> {
    const t = Math.min(Math.max(0, requested), this.settings.duration());
    this.currentTime = t;
    const ms = t * 1000;
    applyVisibility(this.clips, t);
    this.clock.runTimersUntil(ms, (atMs) => this.animations.scan(atMs / 1000));
    this.animations.seekTimelines(t);
    this.animations.scan(t);
    this.animations.seekAnimations(t);
    this.clock.runFrameCallbacks();
    // Zero-delay timers queued by frame callbacks belong to this frame too.
    this.clock.runTimersUntil(ms, (atMs) => this.animations.scan(atMs / 1000));
    this.animations.scan(t);
    this.animations.seekAnimations(t);
    // Before onSeek callbacks, so author code may read or restyle the caption words of this frame.
    this.captions?.show(t);
    await Promise.all(
      [...this.callbacks].map((fn) =>
        this.pending.track(
          'onSeek callback',
          Promise.resolve()
            .then(() => fn(t))
            .catch((error: unknown) => this.log.addError(error, 'onSeek callback')),
        ),
      ),
    );
    await Promise.all([this.seekMedia(t), ...this.seekChildren(t), ...this.seekFrames(t)]);
    await this.pending.track('fonts', waitForFonts(this.win.document));
    await decodeImages(this.win.document, this.pending);
    // Last: grades the pixels that are now decoded and on screen (the capture waits for this).
    this.grading.paint(t, (video) => this.overlays.get(video as HTMLVideoElement)?.img);
  }

  private async seekMedia(t: number): Promise<void> {
    const work: Promise<void>[] = [];
    for (const clip of this.clips) {
      if (clip.kind !== 'video' && clip.kind !== 'audio') continue;
      const el = clip.el as HTMLMediaElement;
      const local = t - clip.start + clip.mediaStart;
      const active = isActive(clip, t);
      const overlay = el instanceof HTMLVideoElement ? this.overlays.get(el) : undefined;
      const label = `${describeElement(el)} frame at ${local.toFixed(3)}s`;
      if (overlay) work.push(this.pending.track(label, overlay.show(local, active)));
      else if (this.playback?.handles(clip)) this.playback.sync(clip, local, active);
      else if (active && (this.settings.mode === 'preview' || clip.kind === 'video')) {
        work.push(this.pending.track(label, seekMediaElement(el, local)));
      } else if (!el.paused) el.pause();
    }
    await Promise.all(work);
  }

  private seekChildren(t: number): Promise<void>[] {
    return this.subs.map((sub) => {
      const clip = this.clips.find((c) => c.el === sub.host);
      const start = clip?.start ?? 0;
      const active = clip ? isActive(clip, t) : true;
      if (this.playback) sub.runtime?.setPlayback({ ...this.playback.state, playing: this.playback.state.playing && active });
      return this.pending.track(`sub-composition "${sub.id}" seek`, sub.seek(t - start, active));
    });
  }

  private seekFrames(t: number): Promise<void>[] {
    return this.frames.map((frame) => {
      // The iframe's own clip, else the clip it sits in: its page's time 0 is that clip's start.
      const clip = this.clips.find((c) => c.el === frame.iframe) ?? this.clips.find((c) => c.el.contains(frame.iframe));
      const start = clip?.start ?? 0;
      const end = clip ? clip.end - start : this.settings.duration();
      const active = clip ? isActive(clip, t) : true;
      return this.pending.track(`iframe ${frame.src} seek`, frame.seek(t - start, end, active));
    });
  }

  onSeek(fn: (t: number) => void | Promise<void>): () => void {
    this.callbacks.add(fn);
    return () => this.callbacks.delete(fn);
  }

  async mediaClips(): Promise<MediaClip[]> {
    await this.ready;
    return describeMediaClips(this.clips, this.subs, this.settings.duration());
  }

  timeline(): TimelineClip[] {
    return describeTimeline(this.clips, this.subs);
  }

  /** Clips and animations of this document and its sub-compositions, in this document's seconds. */
  async inspectTimeline(): Promise<TimelineInspection> {
    await this.ready;
    return inspectTimeline({
      win: this.win,
      duration: this.settings.duration(),
      clips: this.clips,
      adopted: this.animations.adopted(),
      timelineOffset: (key) => this.compositionStart(key),
      subs: this.subs,
      captions: this.captions?.spans() ?? [],
    });
  }

  probeFrame(request: FrameProbeRequest): FrameProbe {
    return probeFrame(this.win.document, this.subs, request);
  }

  hideText(hidden: boolean): void {
    hideText(this.win.document, hidden);
    for (const sub of this.subs) sub.runtime?.hideText(hidden);
  }

  async useVideoFrames(map: VideoFrameMap): Promise<void> {
    await this.ready;
    for (const clip of this.clips) {
      const el = clip.el;
      if (!(el instanceof HTMLVideoElement) || this.overlays.has(el)) continue;
      const source = map[mediaSrc(el)];
      if (!source) continue;
      if (!el.paused) el.pause();
      this.overlays.set(el, new VideoFrameOverlay(el, source));
    }
    await Promise.all(this.subs.map((sub) => sub.useVideoFrames(map)));
    await this.enqueue(this.currentTime);
  }

  /** Player hook (preview): play/pause audible clips and mute them; resyncs at the current time. */
  setPlayback(state: PlaybackState): void {
    const playback = this.playback;
    if (!playback) return;
    const was = playback.state;
    if (was.playing === state.playing && was.muted === state.muted && was.onBlocked === state.onBlocked) return;
    playback.set(state, this.win.document.querySelectorAll<HTMLMediaElement>('video, audio'));
    const t = this.currentTime;
    for (const sub of this.subs) {
      const clip = this.clips.find((c) => c.el === sub.host);
      sub.runtime?.setPlayback({ ...state, playing: state.playing && (clip ? isActive(clip, t) : true) });
    }
    if (!state.playing) return;
    for (const clip of this.clips) {
      if (playback.handles(clip) && !this.overlays.has(clip.el as HTMLVideoElement))
        playback.sync(clip, t - clip.start + clip.mediaStart, isActive(clip, t));
    }
  }

  errors(): string[] {
    return withNested(this.log.list(), this.subs, this.frames, (runtime) => runtime.errors());
  }

  pendingList(): string[] {
    return withNested(this.pending.list(), this.subs, this.frames, (runtime) => runtime.pending());
  }
}
