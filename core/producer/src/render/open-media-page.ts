import {
  openPoolWorker,
  type BrowserInfo,
  type BrowserSource,
  type CapturePageOptions,
  type HdrTransfer,
  type PoolWorker,
} from '@seekframe/engine';
import type { MediaClip } from '@seekframe/runtime';

// The page protocol's own types: the runtime owns this seam.
export type { MediaClip, VideoFrameMap } from '@seekframe/runtime';

/** A <video> source with an HDR transfer (PQ/HLG): it decides --hdr's output. */
export interface HdrSource {
  /** The src as the page resolved it (the useVideoFrames key). */
  src: string;
  /** The local file ffmpeg reads (a project file, or a download in the render's work folder). */
  input: string;
  transfer: HdrTransfer;
}

/**
 * Opens the composition once to read its media clips with live timing (after scripts ran). The
 * page stays open: the plan step's caller may let capture adopt it as its first worker instead of
 * starting another browser.
 */
export async function openMediaPage(options: {
  browser: BrowserInfo;
  page: CapturePageOptions;
  gpu: boolean;
  pool?: BrowserSource | undefined;
}): Promise<{ clips: MediaClip[]; worker: PoolWorker }> {
  const { mode, ...page } = options.page;
  const worker = await openPoolWorker({ browser: options.browser, mode, gpu: options.gpu, page, pool: options.pool });
  try {
    const clips = await worker.page.evaluate(() =>
      (window as unknown as { __seekframe: { mediaClips(): Promise<MediaClip[]> } }).__seekframe.mediaClips(),
    );
    return { clips, worker };
  } catch (error) {
    await worker.close();
    throw error;
  }
}
