import { SeekframeError, type CubeLut, type EffectiveGrading } from '@seekframe/composition';
import { gradePixels } from './grade-pixels.js';
import { MIRRORED_STYLES, placeOverBox } from '../overlay-box.js';

/** Attribute that hides a graded element's own pixels (the canvas shows them instead). */
export const GRADED_ATTRIBUTE = 'data-seekframe-graded';

/** The mirrored styles, plus visibility (read to skip hidden elements) and padding. */
const COPIED_STYLES = [...MIRRORED_STYLES, 'visibility', 'padding'] as const;

export type GradedElement = HTMLImageElement | HTMLVideoElement;

/**
 * One graded `<img>`/`<video>`: a `<canvas>` sibling placed on the element's layout box shows the
 * graded pixels, and the element itself is hidden with `data-seekframe-graded` (it stays in the
 * DOM, so author code and GSAP keep their references). The canvas is a replaced element like the
 * image, so `object-fit`/`object-position` copied from the element crop it the same way.
 */
export class GradedLayer {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private lastKey = '';

  constructor(
    readonly el: GradedElement,
    readonly grading: EffectiveGrading,
    private readonly lut: CubeLut | undefined,
  ) {
    this.canvas = el.ownerDocument.createElement('canvas');
    this.canvas.setAttribute('data-seekframe-overlay', '');
    this.canvas.setAttribute('aria-hidden', 'true');
    const ctx = this.canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx)
      throw new SeekframeError('color-grading-unavailable', 'This browser has no 2D canvas, so data-color-grading cannot be applied', {
        stage: 'load',
      });
    this.ctx = ctx;
    el.setAttribute(GRADED_ATTRIBUTE, '');
  }

  /**
   * Grades what `source` shows now (the element, or the frame image covering a video in render
   * mode) and puts it on the canvas. Synchronous: when it returns, the next paint shows it.
   * `styleSource` is the element whose computed visibility says whether the picture is on screen.
   */
  paint(source: HTMLImageElement | HTMLVideoElement, styleSource: Element, grainSeed: number, frameKey: number): void {
    const anchor = source === this.el ? this.el : source;
    if (this.canvas.previousElementSibling !== anchor) anchor.after(this.canvas);
    const visible = this.syncBox(styleSource);
    const [w0, h0] =
      source instanceof HTMLVideoElement ? [source.videoWidth, source.videoHeight] : [source.naturalWidth, source.naturalHeight];
    if (!visible || w0 === 0 || h0 === 0) return;
    // Grade at the source size, but no larger than needed to cover the element's box.
    const boxW = Math.max(1, this.el.offsetWidth);
    const boxH = Math.max(1, this.el.offsetHeight);
    const scale = Math.min(1, Math.max(boxW / w0, boxH / h0));
    const width = Math.max(1, Math.round(w0 * scale));
    const height = Math.max(1, Math.round(h0 * scale));
    const what = source instanceof HTMLVideoElement ? `${source.currentSrc}@${source.currentTime}` : source.currentSrc || source.src;
    const key = `${what}|${width}x${height}|${this.grading.grain > 0 ? frameKey : ''}`;
    if (key === this.lastKey) return;
    if (this.canvas.width !== width || this.canvas.height !== height) {
      this.canvas.width = width;
      this.canvas.height = height;
    } else this.ctx.clearRect(0, 0, width, height);
    this.ctx.drawImage(source, 0, 0, width, height);
    let image: ImageData;
    try {
      image = this.ctx.getImageData(0, 0, width, height);
    } catch (cause) {
      throw new SeekframeError(
        'color-grading-cross-origin',
        `data-color-grading on ${describe(this.el)} cannot read the pixels of ${what} (another origin without CORS); put the file in the project or serve it with Access-Control-Allow-Origin and add crossorigin="anonymous"`,
        { stage: 'capture', cause },
      );
    }
    gradePixels({ data: image.data, width, height, grading: this.grading, lut: this.lut, grainSeed });
    this.ctx.putImageData(image, 0, 0);
    this.lastKey = key;
  }

  /** Puts the canvas on the element's box; returns whether the element would be visible. */
  private syncBox(styleSource: Element): boolean {
    const el = this.el;
    // Read the element's styles as they are without our hiding rule.
    styleSource.removeAttribute(GRADED_ATTRIBUTE);
    const computed = getComputedStyle(styleSource);
    const values = COPIED_STYLES.map((name) => computed.getPropertyValue(name));
    const fixed = getComputedStyle(el).position === 'fixed';
    styleSource.setAttribute(GRADED_ATTRIBUTE, '');
    const style = this.canvas.style;
    placeOverBox(style, el, fixed);
    COPIED_STYLES.forEach((name, i) => style.setProperty(name, values[i] as string));
    return values[COPIED_STYLES.indexOf('visibility')] === 'visible' && el.offsetWidth > 0 && el.offsetHeight > 0;
  }
}

export function describe(el: Element): string {
  const tag = el.tagName.toLowerCase();
  if (el.id) return `<${tag}#${el.id}>`;
  const src = el.getAttribute('src');
  return src ? `<${tag} src="${src}">` : `<${tag}>`;
}
