import path from 'node:path';
import {
  chooseVideoFrameFormat,
  extractVideoFrames,
  mixAudio,
  openPoolWorker,
  probeMedia,
  type AudioTrack,
  type BrowserInfo,
  type CapturePageOptions,
  type HdrTransfer,
  type MediaInfo,
  type PoolWorker,
} from '@seekframe/engine';
import type { MediaClip, VideoFrameMap } from '@seekframe/runtime';
import type { ProjectServer } from '../serve/project-server.js';
import { createMediaSourceResolver } from './resolve-media-source.js';
import type { Fps, OutputFormat } from '../plan/render-options.js';

// The page protocol's own types: the runtime owns this seam.
export type { MediaClip, VideoFrameMap } from '@seekframe/runtime';

export interface PreparedMedia {
  clips: MediaClip[];
  videoFrames: VideoFrameMap;
  /** The mixed soundtrack, when any clip has sound (and the format carries audio). */
  audioFile: string | undefined;
  /** The page the clips were read from, still open; the caller owns it (capture adopts it). */
  worker: PoolWorker;
  /** <video> sources with an HDR transfer (PQ/HLG), in clip order: they decide --hdr's output. */
  hdrSources: HdrSource[];
}

export interface HdrSource {
  src: string;
  /** The local file ffmpeg reads (a project file, or a download in the render's work folder). */
  input: string;
  transfer: HdrTransfer;
}

export interface PrepareMediaOptions {
  browser: BrowserInfo;
  /** The page as capture workers open it. */
  page: CapturePageOptions;
  gpu: boolean;
  server: ProjectServer;
  root: string;
  workDir: string;
  fps: Fps;
  duration: number;
  format: OutputFormat;
  videoFrameFormat: 'auto' | 'jpg' | 'png';
  signal: AbortSignal | undefined;
  /** The page is untrusted (server renders): media only from the project by real path or through the public-address fetch. */
  sandboxed?: boolean;
  /** Tone-map HDR clips into the page's SDR range (needs ffmpeg's zscale); false extracts them as is. */
  toneMapHdr?: boolean;
}

/**
 * Opens the composition once to read its media clips with live timing (after scripts ran). The
 * page stays open: capture adopts it as its first worker instead of starting another browser.
 */
export async function openMediaPage(options: Pick<PrepareMediaOptions, 'browser' | 'page' | 'gpu'>): Promise<{ clips: MediaClip[]; worker: PoolWorker }> {
  const { mode, ...page } = options.page;
  const worker = await openPoolWorker({ browser: options.browser, mode, gpu: options.gpu, page });
  try {
    const clips = await worker.page.evaluate(() => (window as unknown as { __seekframe: { mediaClips(): Promise<MediaClip[]> } }).__seekframe.mediaClips());
    return { clips, worker };
  } catch (error) {
    await worker.session.close();
    throw error;
  }
}

export async function prepareMedia(options: PrepareMediaOptions): Promise<PreparedMedia> {
  const { clips, worker } = await openMediaPage(options);
  try {
    const hdrSources: HdrSource[] = [];
    return { ...(await prepareClips(clips, options, hdrSources)), hdrSources, worker };
  } catch (error) {
    await worker.session.close();
    throw error;
  }
}

async function prepareClips(clips: MediaClip[], options: PrepareMediaOptions, hdrSources: HdrSource[]): Promise<Omit<PreparedMedia, 'worker' | 'hdrSources'>> {
  // A missing media file is reported by the server with the document that used it.
  options.server.assertNoProblems();
  const localFile = createMediaSourceResolver({ server: options.server, root: options.root, workDir: options.workDir, sandboxed: options.sandboxed ?? false });
  const probes = new Map<string, Promise<MediaInfo>>();
  const probeOnce = (input: string): Promise<MediaInfo> => {
    let probe = probes.get(input);
    if (!probe) probes.set(input, (probe = probeMedia(input)));
    return probe;
  };

  const videoFrames: VideoFrameMap = {};
  const videos = [...new Set(clips.filter((c) => c.kind === 'video').map((c) => c.src))];
  for (const [n, src] of videos.entries()) {
    throwIfAborted(options.signal);
    const input = await localFile(src, 'video');
    const probe = await probeOnce(input);
    if (probe.hdr) hdrSources.push({ src, input, transfer: probe.hdr });
    // HDR clips: tone-mapped 16-bit PNG frames unless the user chose jpg (see tone-map-filter.ts).
    const toneMap = probe.hdr !== undefined && options.toneMapHdr !== false;
    const format = toneMap && options.videoFrameFormat === 'auto' ? 'png' : chooseVideoFrameFormat(options.videoFrameFormat, probe);
    const dir = path.join(options.workDir, `video-${n + 1}`);
    const extracted = await extractVideoFrames(input, dir, { fps: options.fps, format, probe, toneMap, ...(options.signal ? { signal: options.signal } : {}) });
    const prefix = options.server.mount(`video-${n + 1}`, dir);
    videoFrames[src] = { urlPattern: prefix + extracted.pattern, fps: options.fps.num / options.fps.den, frameCount: extracted.count };
  }

  const audible = clips.filter((c) => c.hasAudio && c.duration > 0);
  if (audible.length === 0 || options.format === 'gif') return { clips, videoFrames, audioFile: undefined };
  const tracks: AudioTrack[] = [];
  for (const clip of audible) {
    const input = await localFile(clip.src, clip.kind);
    if (!(await probeOnce(input)).hasAudio) continue; // data-has-audio on a silent file: nothing to mix
    tracks.push({ file: input, start: clip.start, duration: clip.duration, mediaStart: clip.mediaStart, volume: clip.volume });
  }
  if (tracks.length === 0) return { clips, videoFrames, audioFile: undefined };
  throwIfAborted(options.signal);
  // webm carries Opus; every other format gets AAC (the encoder re-encodes for mov's PCM).
  const codec = options.format === 'webm' ? 'opus' : 'aac';
  const mixed = await mixAudio(tracks, options.duration, path.join(options.workDir, codec === 'opus' ? 'audio.ogg' : 'audio.m4a'), codec, options.signal ? { signal: options.signal } : {});
  return { clips, videoFrames, audioFile: mixed.output };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('aborted');
}
