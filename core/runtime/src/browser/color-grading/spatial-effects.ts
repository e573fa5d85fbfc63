/**
 * Blur and pixelate on RGBA bytes, in place. Plain loops so the result is the same everywhere;
 * a canvas `filter: blur()` would differ between GPU and software canvases.
 */

/** Box widths whose three passes approximate a Gaussian of standard deviation `sigma`. */
export function boxWidthsForGauss(sigma: number, passes = 3): number[] {
  const ideal = Math.sqrt((12 * sigma * sigma) / passes + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower--;
  const upper = lower + 2;
  const m = Math.round((12 * sigma * sigma - passes * lower * lower - 4 * passes * lower - 3 * passes) / (-4 * lower - 4));
  return Array.from({ length: passes }, (_, i) => (i < m ? lower : upper));
}

/** One running-sum box pass along rows (`horizontal`) or columns; edges repeat the border pixel. */
function boxPass(src: Uint8ClampedArray, dst: Uint8ClampedArray, width: number, height: number, radius: number, horizontal: boolean): void {
  const lines = horizontal ? height : width;
  const length = horizontal ? width : height;
  const step = horizontal ? 4 : width * 4;
  const span = 2 * radius + 1;
  for (let line = 0; line < lines; line++) {
    const base = horizontal ? line * width * 4 : line * 4;
    for (let c = 0; c < 4; c++) {
      const at = (k: number): number => src[base + Math.min(length - 1, Math.max(0, k)) * step + c] as number;
      let sum = 0;
      for (let k = -radius; k <= radius; k++) sum += at(k);
      for (let k = 0; k < length; k++) {
        dst[base + k * step + c] = sum / span;
        sum += at(k + radius + 1) - at(k - radius);
      }
    }
  }
}

/** Gaussian-like blur with standard deviation `sigma` pixels (what CSS `blur(σpx)` means). */
export function blurRgba(data: Uint8ClampedArray, width: number, height: number, sigma: number): void {
  if (sigma <= 0 || width === 0 || height === 0) return;
  const tmp = new Uint8ClampedArray(data.length);
  for (const box of boxWidthsForGauss(sigma)) {
    const radius = Math.max(0, (box - 1) / 2);
    if (radius === 0) continue;
    boxPass(data, tmp, width, height, radius, true);
    boxPass(tmp, data, width, height, radius, false);
  }
}

/** Fills each `block`×`block` square (from the top-left corner) with its average colour. */
export function pixelateRgba(data: Uint8ClampedArray, width: number, height: number, block: number): void {
  const size = Math.max(1, Math.floor(block));
  if (size <= 1) return;
  for (let by = 0; by < height; by += size) {
    for (let bx = 0; bx < width; bx += size) {
      const ey = Math.min(height, by + size);
      const ex = Math.min(width, bx + size);
      const sum = [0, 0, 0, 0];
      for (let y = by; y < ey; y++) for (let x = bx; x < ex; x++) for (let c = 0; c < 4; c++) sum[c]! += data[(y * width + x) * 4 + c] as number;
      const n = (ey - by) * (ex - bx);
      for (let y = by; y < ey; y++) for (let x = bx; x < ex; x++) for (let c = 0; c < 4; c++) data[(y * width + x) * 4 + c] = sum[c]! / n;
    }
  }
}
