import { SeekframeError } from '@seekframe/composition';
import type { VideoFrameSource } from '../runtime-types.js';
import { MIRRORED_STYLES, placeOverBox } from './overlay-box.js';

/** The mirrored styles, plus the corner radii as longhands (Chromium reports them apart). */
const COPIED_STYLES = [
  ...MIRRORED_STYLES,
  'border-top-left-radius',
  'border-top-right-radius',
  'border-bottom-left-radius',
  'border-bottom-right-radius',
] as const;

export function frameUrl(pattern: string, index: number): string {
  // 1-based, like ffmpeg's image2 muxer default (-start_number 1).
  return pattern.replace(/%0?(\d*)d/, (_m, width: string) => String(index + 1).padStart(Number(width) || 0, '0'));
}

/**
 * Covers a `<video>` with an `<img>` that shows pre-extracted frames (render mode). The image is a
 * sibling placed on the video's layout box; the video stays in the DOM (author code and GSAP keep
 * their references) but is hidden with `data-seekframe-covered`.
 */
export class VideoFrameOverlay {
  readonly img: HTMLImageElement;

  constructor(
    readonly video: HTMLVideoElement,
    private readonly source: VideoFrameSource,
  ) {
    const doc = video.ownerDocument;
    this.img = doc.createElement('img');
    this.img.setAttribute('data-seekframe-overlay', '');
    this.img.alt = '';
    this.img.decoding = 'sync';
    video.after(this.img);
    video.setAttribute('data-seekframe-covered', '');
  }

  frameIndex(localMediaTime: number): number {
    const index = Math.floor(localMediaTime * this.source.fps + 1e-6);
    return Math.min(Math.max(0, index), Math.max(0, this.source.frameCount - 1));
  }

  /** Shows the frame for `localMediaTime` (seconds into the source) and waits until it is decoded. */
  async show(localMediaTime: number, visible: boolean): Promise<void> {
    this.syncBox(visible);
    const url = new URL(frameUrl(this.source.urlPattern, this.frameIndex(localMediaTime)), this.video.baseURI).href;
    if (this.img.src !== url) this.img.src = url;
    try {
      await this.img.decode();
    } catch {
      throw new SeekframeError(
        'asset-not-found',
        `Video frame ${url} (for <video src="${this.video.currentSrc}">) could not be loaded; check the extracted frames and the urlPattern passed to useVideoFrames()`,
        {
          stage: 'capture',
        },
      );
    }
  }

  private syncBox(visible: boolean): void {
    const video = this.video;
    const computed = getComputedStyle(video);
    const style = this.img.style;
    placeOverBox(style, video, computed.position === 'fixed');
    style.padding = computed.padding;
    for (const name of COPIED_STYLES) style.setProperty(name, computed.getPropertyValue(name));
    style.visibility = visible ? 'visible' : 'hidden';
  }
}
