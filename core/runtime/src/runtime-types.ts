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
  /** What moves when: every clip and every animation (GSAP tweens, CSS animations and
   *  transitions, Web Animations) with its composition-time interval and target, sub-compositions
   *  included. Animations started later by a script appear once a seek has passed their start.
   *  Used by `seekframe check` and the render report; awaits `ready`. */
  timeline(): Promise<TimelineInspection>;
  /** What `ready` or the current seek still waits for, e.g. `image https://…/a.png`. */
  pending(): string[];
  /** Problems that do not stop a render but would make it show less than the author meant (a
   *  sub-composition with nothing to show, an iframe whose clock cannot follow); known once `ready`
   *  settled. The render reports each as a `warning` event, an error under `strict`. */
  warnings(): RuntimeWarning[];
  /** Player-internal (preview mode; ignored in render mode): play audible media clips in sync
   *  with the seeks while `playing`, `muted` on every media element. */
  setPlayback(state: PlaybackState): void;
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

/** An element as findings and reports name it. */
export interface TimelineElement {
  /** `<div#title>`; inside a sub-composition prefixed with its id, e.g. `[intro] <h1>`. */
  label: string;
  /** A CSS selector that finds it in its own document (`#title`, `#stage > div.card:nth-of-type(2)`). */
  selector: string;
  /** Selectors of the sub-composition hosts from the top document down to the element's document; `[]` at top level. */
  hosts: string[];
}

export interface TimelineClip extends TimelineElement {
  kind: 'video' | 'audio' | 'composition' | 'element';
  id?: string;
  /** Composition seconds; `end` is exclusive. */
  start: number;
  end: number;
}

export interface TimelineAnimation {
  kind: 'gsap' | 'css-animation' | 'css-transition' | 'web-animation';
  /** `animation-name`, the transitioned property, `__timelines["main"]`, or `gsap (not registered)`. */
  name: string;
  /** The animated properties when known (GSAP vars, keyframe properties), e.g. `x, opacity`. */
  properties: string;
  target: TimelineElement;
  /** Composition seconds in which it changes the target; `end` is capped at the composition's end. */
  start: number;
  end: number;
  /** Seconds of one pass; 0 means it jumps to its end state at once. */
  duration: number;
  /** GSAP: registered in `window.__timelines`, so every seek moves it to the exact time. */
  registered?: boolean;
  /** GSAP: paused. Paused and not registered, nothing ever moves it. */
  paused?: boolean;
  /** Indices into `clips` of the clips that contain the target (the target itself included). */
  clips: number[];
}

export interface TimelineInspection {
  duration: number;
  clips: TimelineClip[];
  animations: TimelineAnimation[];
}
