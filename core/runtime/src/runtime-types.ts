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
