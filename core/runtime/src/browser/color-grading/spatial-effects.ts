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

/**
 * One running-sum box pass along rows (`horizontal`) or columns, all four channels at once;
 * edges repeat the border pixel. O(pixels) whatever the radius.
 */
function boxPass(src: Uint8ClampedArray, dst: Uint8ClampedArray, width: number, height: number, radius: number, horizontal: boolean): void {
  const lines = horizontal ? height : width;
  const length = horizontal ? width : height;
  const step = horizontal ? 4 : width * 4;
  const scale = 1 / (2 * radius + 1);
  const last = length - 1;
  for (let line = 0; line < lines; line++) {
    const base = horizontal ? line * width * 4 : line * 4;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = -radius; k <= radius; k++) {
      const p = base + (k < 0 ? 0 : k > last ? last : k) * step;
      s0 += src[p] as number;
      s1 += src[p + 1] as number;
      s2 += src[p + 2] as number;
      s3 += src[p + 3] as number;
    }
    for (let k = 0; k < length; k++) {
      const o = base + k * step;
      dst[o] = s0 * scale;
      dst[o + 1] = s1 * scale;
      dst[o + 2] = s2 * scale;
      dst[o + 3] = s3 * scale;
      const add = k + radius + 1;
      const sub = k - radius;
      const pa = base + (add > last ? last : add) * step;
      const ps = base + (sub < 0 ? 0 : sub) * step;
      s0 += (src[pa] as number) - (src[ps] as number);
      s1 += (src[pa + 1] as number) - (src[ps + 1] as number);
      s2 += (src[pa + 2] as number) - (src[ps + 2] as number);
      s3 += (src[pa + 3] as number) - (src[ps + 3] as number);
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
      for (let y = by; y < ey; y++)
        for (let x = bx; x < ex; x++) for (let c = 0; c < 4; c++) sum[c]! += data[(y * width + x) * 4 + c] as number;
      const n = (ey - by) * (ex - bx);
      for (let y = by; y < ey; y++) for (let x = bx; x < ex; x++) for (let c = 0; c < 4; c++) data[(y * width + x) * 4 + c] = sum[c]! / n;
    }
  }
}
