import type { WaveformInfo } from '../studio/studio-types.js';
import { studioJson } from './api.js';
import { projectPath, type StudioClip } from './studio-clips.js';

/**
 * Waveforms on the blocks of clips with sound (`<audio>`, `<video data-has-audio>`): peaks
 * computed by the preview server with ffmpeg (`GET waveform?src=`), read once per file, drawn
 * for the part of the source the clip plays (from `data-media-start`).
 */
export class Waveforms {
  private readonly peaks = new Map<string, Promise<WaveformInfo | null>>();

  constructor(private readonly clip: (key: string) => StudioClip | undefined) {}

  /** Adds a canvas with the clip's waveform to its block (drawn once the peaks are there). */
  decorate(block: HTMLElement, key: string, pxPerSecond: number): void {
    const clip = this.clip(key);
    if (!clip || !hasSound(clip.element)) return;
    const src = (clip.element as HTMLMediaElement).currentSrc || clip.element.getAttribute('src');
    if (!src) return;
    const path = projectPath(src);
    let info = this.peaks.get(path);
    if (!info) {
      info = studioJson<WaveformInfo>(`waveform?src=${encodeURIComponent(path)}`).catch(() => null);
      this.peaks.set(path, info);
    }
    const canvas = document.createElement('canvas');
    block.prepend(canvas);
    block.dataset.waveform = 'loading';
    void info.then((wave) => {
      if (!wave) {
        block.dataset.waveform = 'none';
        return;
      }
      draw(canvas, wave, clip.mediaStart, (clip.end - clip.start) * pxPerSecond, clip.end - clip.start);
      block.dataset.waveform = 'drawn';
    });
  }
}

function hasSound(el: Element): boolean {
  if (el.tagName === 'AUDIO') return true;
  const attr = el.getAttribute('data-has-audio');
  return el.tagName === 'VIDEO' && attr !== null && attr !== 'false';
}

function draw(canvas: HTMLCanvasElement, wave: WaveformInfo, from: number, widthPx: number, seconds: number): void {
  const width = Math.max(1, Math.min(8192, Math.round(widthPx)));
  const height = 22;
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.fillStyle = 'rgba(255,255,255,0.8)';
  for (let x = 0; x < width; x++) {
    const a = Math.floor((from + (x / width) * seconds) * wave.rate);
    const b = Math.max(a + 1, Math.floor((from + ((x + 1) / width) * seconds) * wave.rate));
    let peak = 0;
    for (let i = a; i < b && i < wave.peaks.length; i++) peak = Math.max(peak, wave.peaks[i] ?? 0);
    const bar = Math.max(1, peak * height);
    ctx.fillRect(x, (height - bar) / 2, 1, bar);
  }
}
