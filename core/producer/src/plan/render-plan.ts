import { createHash } from 'node:crypto';
import { canonicalJson, type FrameSpan } from '@seekframe/composition';
import type { HdrOutput } from '@seekframe/engine';
import type { RenderLimits } from './render-limits.js';
import type { Fps, OutputFormat } from './render-spec.js';

/** The composition frame output frame 0 shows: 0, or the start of the plan's `frames`. */
export function firstFrame(plan: Pick<RenderPlan, 'frames'>): number {
  return plan.frames?.start ?? 0;
}

/**
 * A media clip as the plan step found it on the live page. `src` is `/path?query` for anything
 * the project server answers (project files, the remote route), so the same plan works behind
 * another server's port; any other URL (a script-set http(s) source, data:, file:) as the page had it.
 */
export interface PlannedClip {
  kind: 'video' | 'audio';
  src: string;
  /** Absolute seconds in the top-level timeline. */
  start: number;
  duration: number;
  mediaStart: number;
  hasAudio: boolean;
  volume: number;
  /** Video sources with an HDR transfer: they decide HDR output and are tone-mapped for the page. */
  hdr?: 'pq' | 'hlg';
}

/** One audible clip for mixPlanAudio: its source really has sound (probed at planning). */
export interface PlannedAudioTrack {
  kind: 'video' | 'audio';
  src: string;
  start: number;
  duration: number;
  mediaStart: number;
  volume: number;
}

/**
 * Everything a render needs to produce its pixels, fixed once by planRender: plain JSON, so a
 * range rendered elsewhere (another process, a Lambda) from the same plan gives the same frames.
 * The project folder is not in the plan; each call gets it as `projectDir`.
 */
/**
 * What made the pixels: pixels are compared only between renders with equal versions (another
 * Chromium rasterises differently, another ffmpeg encodes differently, other fonts shape text
 * differently). `fonts`: the font packages' versions (from the image's record in a Seekframe
 * image, from dpkg on Debian/Ubuntu), null where nothing says.
 */
export interface RenderVersions {
  seekframe: string;
  chromium: string;
  ffmpeg: string;
  fonts: Record<string, string> | null;
}

export interface RenderPlan {
  version: 1;
  /** sha256 of the canonical JSON of every other field (planHash). */
  hash: string;
  /** Entry HTML path relative to the project folder (POSIX separators). */
  entry: string;
  /** The page's CSS size (data-width x data-height). */
  width: number;
  height: number;
  /** --scale: the device scale factor of the capture; the encoded frames are width x scale by height x scale. Absent = 1. */
  scale?: number;
  fps: Fps;
  /** Frames of the output: the composition's, or those of `frames`. Ranges given to renderFrames count these. */
  totalFrames: number;
  /**
   * `--frames`: the output is composition frames start..end (both included), so output frame k
   * shows composition frame start + k and the sound is cut to the same times. Absent = all.
   */
  frames?: FrameSpan;
  format: OutputFormat;
  encoder: {
    quality: 'draft' | 'standard' | 'high';
    crf?: number;
    videoBitrate?: string;
    gifLoop?: number;
    /** hls: frames in each segment (each starts on a keyframe). */
    hlsSegmentFrames?: number;
    /** Set: the mp4 is 10-bit HEVC with these HDR tags (--hdr, or HDR clips). */
    hdr?: HdrOutput;
    /** --gpu: a hardware H.264 encoder for the one-piece mp4 when one works where it renders. */
    gpu: boolean;
  };
  captureMode: 'canvas' | 'beginframe' | 'screenshot';
  /** Math.random seed of the page. */
  seed: number;
  /** Virtual Date.now() at t = 0, taken once at planning time. */
  epochMs: number;
  /** Top-level variable overrides given to the entry document. */
  variables: Record<string, unknown>;
  media: { clips: PlannedClip[]; audio: null | { tracks: PlannedAudioTrack[]; codec: 'aac' | 'opus' } };
  versions: RenderVersions;
  /** The spec's settings that shape how frames are captured (not what they show). */
  workers: 'auto' | number;
  browserGpu: boolean;
  strict: boolean;
  videoFrameFormat: 'auto' | 'jpg' | 'png';
  readyTimeoutMs: number;
  seekTimeoutMs: number;
  remoteTimeoutMs: number;
  network: 'open' | 'sandboxed';
  limits?: RenderLimits;
}

/** The shared canonical JSON (@seekframe/composition): the same plan always gives the same text. */
export { canonicalJson };

/** The plan's hash: sha256 (hex) of the canonical JSON of everything but `hash`. */
export function planHash(plan: Omit<RenderPlan, 'hash'> & { hash?: string }): string {
  const { hash: _hash, ...rest } = plan;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** A plan with its hash filled in. */
export function sealPlan(plan: Omit<RenderPlan, 'hash'>): RenderPlan {
  return { ...plan, hash: planHash(plan) };
}
