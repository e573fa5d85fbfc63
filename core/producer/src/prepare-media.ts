import { SeekframeError } from '@seekframe/composition';
import { launchBrowser, openCapturePage, type BrowserInfo } from '@seekframe/engine';
import type { PageTarget } from './capture-and-encode.js';
import type { ProjectServer } from './project-server.js';
import type { Fps, OutputFormat } from './render-options.js';

/** What `__seekframe.useVideoFrames` takes: absolute video src -> extracted frame files. */
export type VideoFrameMap = Record<string, { urlPattern: string; fps: number; frameCount: number }>;

export interface MediaClip {
  kind: 'video' | 'audio';
  src: string;
  start: number;
  duration: number;
  mediaStart: number;
  hasAudio: boolean;
  volume: number;
}

export interface PreparedMedia {
  clips: MediaClip[];
  videoFrames: VideoFrameMap;
  /** The mixed soundtrack, when any clip has sound (and the format carries audio). */
  audioFile: string | undefined;
}

export interface PrepareMediaOptions {
  browser: BrowserInfo;
  page: PageTarget;
  server: ProjectServer;
  root: string;
  workDir: string;
  fps: Fps;
  duration: number;
  format: OutputFormat;
  videoFrameFormat: 'auto' | 'jpg' | 'png';
  transparent: boolean;
  gpu: boolean;
  signal: AbortSignal | undefined;
}

/** Opens the composition once to read its media clips with live timing (after scripts ran). */
export async function readMediaClips(options: Pick<PrepareMediaOptions, 'browser' | 'page' | 'gpu'>): Promise<MediaClip[]> {
  const session = await launchBrowser({ browser: options.browser, mode: options.page.mode, gpu: options.gpu, width: options.page.width, height: options.page.height });
  try {
    const page = await openCapturePage(session, { ...options.page, imageFormat: 'jpeg', transparent: false });
    return await page.evaluate(() => (window as unknown as { __seekframe: { mediaClips(): Promise<MediaClip[]> } }).__seekframe.mediaClips());
  } finally {
    await session.close();
  }
}

export async function prepareMedia(options: PrepareMediaOptions): Promise<PreparedMedia> {
  const clips = await readMediaClips(options);
  if (clips.length > 0) {
    throw new SeekframeError('media-unsupported', 'Media clips are not supported yet.', { stage: 'media' });
  }
  return { clips, videoFrames: {}, audioFile: undefined };
}
