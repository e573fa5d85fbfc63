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
