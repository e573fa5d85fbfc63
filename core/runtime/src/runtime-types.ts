/** The page protocol (docs/contributing/architecture.md): `window.__seekframe` as seen by authors, engine and player. */
export interface SeekframeRuntime {
  duration: number;
  fps: number;
  width: number;
  height: number;
  /** Fonts loaded, images decoded, timelines registered, media metadata and sub-compositions ready.
   *  Rejects with a reason naming what failed. */
  ready: Promise<void>;
  /** Resolves when frame `t` (seconds, clamped to [0, duration]) is ready to paint. Seeks queue. */
  seek(t: number): Promise<void>;
  onSeek(fn: (t: number) => void | Promise<void>): () => void;
  getVariables(): Record<string, unknown>;
  mediaClips(): Promise<MediaClip[]>;
  useVideoFrames(map: VideoFrameMap): Promise<void>;
  errors(): string[];
  /** What moves when, as plain data for Node: every clip and every animation (GSAP tweens, CSS
   *  animations and transitions, Web Animations) with its composition-time interval and target (a
   *  selector), sub-compositions included. Animations started later by a script appear once a seek
   *  has passed their start. Used by `seekframe check` and the render report; awaits `ready`. */
  inspectTimeline(): Promise<TimelineInspection>;
  /** What `ready` or the current seek still waits for, e.g. `image https://…/a.png`. */
  pending(): string[];
  /** Problems that do not stop a render but would make it show less than the author meant (a
   *  sub-composition with nothing to show, an iframe whose clock cannot follow); known once `ready`
   *  settled. The render reports each as a `warning` event, an error under `strict`. */
  warnings(): RuntimeWarning[];
  /**
   * The clips of this document as the seeks use them: every clip, media element and
   * sub-composition host with its resolved start and end (start-after-id chains, offsets, measured
   * media lengths, a child's length from its host or its own timeline). Empty until `ready`.
   * For tools (the preview's timeline); a render never calls it.
   */
  timeline(): TimelineClip[];
  /** Player-internal (preview mode; ignored in render mode): play audible media clips in sync
   *  with the seeks while `playing`, `muted` on every media element. */
  setPlayback(state: PlaybackState): void;
  /** Engine-only (`seekframe check`), at the current seek time: where each target paints (its
   *  painted bounds in frame pixels: stroke, shadow, outline and transforms included) and a digest
   *  of the values that animate it; with `text`, every visible block of text. Sub-compositions
   *  included (`hosts`). Synchronous reads of the laid-out page, no seek. */
  probeFrame(request: FrameProbeRequest): FrameProbe;
  /** Engine-only (the contrast audit): makes the fill of every text transparent (true), in
   *  sub-compositions too, so a capture shows what is behind the glyphs; false restores it.
   *  Neither starts a CSS transition. */
  hideText(hidden: boolean): void;
}

/** A pixel rectangle in the frame (top-level CSS pixels). */
export interface FrameBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An element named as `InspectedElement` names it: a selector in its own document, under its hosts. */
export interface ElementRef {
  selector: string;
  hosts: string[];
}

export interface FrameProbeRequest {
  /** Elements to measure; `properties` are the animated property names (CSS or GSAP vars) whose values go into `values`. */
  targets: Array<ElementRef & { properties?: string[] }>;
  /** Read the visible text blocks as well. */
  text?: boolean;
  /** Elements animated at this time: text inside them is `moving`. */
  moving?: ElementRef[];
}

export interface FrameProbe {
  /** One per target, in order; null when the selector finds nothing. */
  targets: Array<{ box: FrameBox | null; values: string } | null>;
  /** Empty unless `text` was asked for. */
  texts: TextBlock[];
}

/** An element's own text (its direct text nodes) as it is laid out at the current time. */
export interface TextBlock extends InspectedElement {
  /** The text, whitespace collapsed, cut at 60 characters. */
  text: string;
  /** Its line fragments in frame pixels (an SVG text: its box). */
  lines: FrameBox[];
  /** Computed font size (CSS px) and weight. */
  fontSize: number;
  fontWeight: number;
  /** The fill as sRGB bytes with alpha 0-1; null when it is not one colour (background-clip: text,
   *  a gradient fill, a blend mode or filter on it or an ancestor). */
  color: [number, number, number, number] | null;
  /** Its opacity times every ancestor's (and the sub-composition hosts'). */
  opacity: number;
  /** The box the text belongs in: the nearest element (itself or an ancestor) that paints a
   *  background or border or clips its overflow, unless that is (nearly) the whole frame. */
  box: (FrameBox & { label: string; clips: boolean }) | null;
  /** What is left visible by ancestors that clip overflow; null when none clips. */
  clip: FrameBox | null;
  /** Cut on purpose: `text-overflow: ellipsis` or `-webkit-line-clamp` on it or up to its box. */
  truncates: boolean;
  /** Rotated or skewed (its line boxes are not where the glyphs are). */
  rotated: boolean;
  /** Another element that paints opaquely is on top of it at every probe point. */
  covered: boolean;
  /** Inside an element the request named as animated at this time. */
  moving: boolean;
}

export interface RuntimeWarning {
  /** `sub-composition-empty` | `clip-source-unreadable` */
  code: string;
  message: string;
  /** The host or clip, e.g. `<div#intro data-composition-src="intro.html">`, and its file. */
  details?: Record<string, string>;
}

export interface PlaybackState {
  playing: boolean;
  muted: boolean;
  /** Called with the media URL when the browser refuses play() (autoplay policy). */
  onBlocked?: (src: string) => void;
}

export interface MediaClip {
  kind: 'video' | 'audio';
  src: string;
  start: number;
  duration: number;
  mediaStart: number;
  hasAudio: boolean;
  volume: number;
}

export interface VideoFrameSource {
  /** URL with `%06d`; the number is 1-based (ffmpeg's default `-start_number 1`). */
  urlPattern: string;
  fps: number;
  frameCount: number;
}

export type VideoFrameMap = Record<string, VideoFrameSource>;

/** One clip of `SeekframeRuntime.timeline()`. */
export interface TimelineClip {
  /** `data-composition-id`, else `id`; undefined for an anonymous clip. */
  id: string | undefined;
  kind: 'video' | 'audio' | 'composition' | 'element';
  /** The clip's element in the composition's document (a host for a sub-composition). */
  element: HTMLElement;
  /** Seconds; `end` is exclusive and is the composition's end for a clip without a length. */
  start: number;
  end: number;
  /** `data-track-index`; undefined when the clip has none. */
  trackIndex: number | undefined;
  /** Seconds trimmed from the media source's start (`data-media-start`). */
  mediaStart: number;
  /** Where the length came from: `data-duration`, the measured media, the sub-composition, or none. */
  lengthFrom: 'attribute' | 'media' | 'composition' | 'open';
  /** A sub-composition instance: its variables as resolved for this instance (declared defaults <- host `data-variable-values`). */
  variables?: Record<string, unknown>;
}

/** An element as findings and reports name it. */
export interface InspectedElement {
  /** `<div#title>`; inside a sub-composition prefixed with its id, e.g. `[intro] <h1>`. */
  label: string;
  /** A CSS selector that finds it in its own document (`#title`, `#stage > div.card:nth-of-type(2)`). */
  selector: string;
  /** Selectors of the sub-composition hosts from the top document down to the element's document; `[]` at top level. */
  hosts: string[];
}

export interface InspectedClip extends InspectedElement {
  kind: 'video' | 'audio' | 'composition' | 'element';
  id?: string;
  /** Composition seconds; `end` is exclusive. */
  start: number;
  end: number;
}

export interface InspectedAnimation {
  kind: 'gsap' | 'css-animation' | 'css-transition' | 'web-animation';
  /** `animation-name`, the transitioned property, `__timelines["main"]`, or `gsap (not registered)`. */
  name: string;
  /** The animated properties when known (GSAP vars, keyframe properties), e.g. `x, opacity`. */
  properties: string;
  target: InspectedElement;
  /** Composition seconds in which it changes the target; `end` is capped at the composition's end. */
  start: number;
  end: number;
  /** Seconds of one pass; 0 means it jumps to its end state at once. */
  duration: number;
  /** GSAP: the tween's ease as written (`power2.out`), from its timeline's defaults when it has none; `custom` for an ease function. */
  ease?: string;
  /** GSAP: the nested timeline(s) it sits in below the registered one, outermost first (`intro › title`); absent at the top. */
  timeline?: string;
  /** GSAP: registered in `window.__timelines`, so every seek moves it to the exact time. */
  registered?: boolean;
  /** GSAP: paused. Paused and not registered, nothing ever moves it. */
  paused?: boolean;
  /** Indices into `clips` of the clips that contain the target (the target itself included). */
  clips: number[];
}

/** A `[data-captions]` element and when its transcript shows text. */
export interface InspectedCaptions extends InspectedElement {
  /** The captions variable it shows. */
  variable: string;
  /** Composition seconds of each transcript segment (the element shows text only inside them, and only while its clips are on screen); not cut at the composition's end. */
  segments: Array<{ start: number; end: number }>;
  /** Indices into `clips` of the clips that contain the element (the element itself included). */
  clips: number[];
}

/** A label of a GSAP timeline (`tl.addLabel('hit', 1.2)`), nested timelines' included. */
export interface InspectedLabel {
  name: string;
  /** Composition seconds. */
  time: number;
  /** `__timelines["main"]`, and the nested timeline's path when it is in one. */
  timeline: string;
}

export interface TimelineInspection {
  duration: number;
  clips: InspectedClip[];
  animations: InspectedAnimation[];
  /** GSAP labels of the registered timelines (absent from runtimes older than labels). */
  labels?: InspectedLabel[];
  /** Caption elements (absent from runtimes older than captions). */
  captions?: InspectedCaptions[];
}
