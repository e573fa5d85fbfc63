import type { CubeLut, EffectiveGrading } from '@seekframe/composition';
import { blurRgba, pixelateRgba } from './spatial-effects.js';

/**
 * The whole grading pass on RGBA bytes (as from getImageData), in place. Pure arithmetic on
 * typed arrays: the same numbers in Node, the player and the renderer, with no GPU involved.
 * Order: pixelate, blur, exposure (linear light), white balance, contrast, saturation, vibrance
 * (working space), LUT (sRGB-encoded), vignette, grain.
 */
export interface GradeInput {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  grading: EffectiveGrading;
  lut: CubeLut | undefined;
  /** Grain pattern seed; the caller mixes the element and the frame's time in. */
  grainSeed: number;
}

const LUMA = [0.2126, 0.7152, 0.0722] as const;
/** Slope of temperature and tint: at ±1 a channel gains or loses a quarter. */
const BALANCE = 0.25;
/** Grain amplitude at grain = 1, in full-scale units (±0.15 = ±38 of 255). */
const GRAIN_AMPLITUDE = 0.15;
const OUT_STEPS = 4096;

export function srgbToLinear(e: number): number {
  return e <= 0.04045 ? e / 12.92 : ((e + 0.055) / 1.055) ** 2.4;
}
export function linearToSrgb(l: number): number {
  return l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055;
}
/** BT.709 camera curve (OETF) and its inverse. */
export function linearToRec709(l: number): number {
  return l < 0.018 ? 4.5 * l : 1.099 * l ** 0.45 - 0.099;
}
export function rec709ToLinear(v: number): number {
  return v < 0.081 ? v / 4.5 : ((v + 0.099) / 1.099) ** (1 / 0.45);
}

type Space = EffectiveGrading['colorSpace'];
function toWorking(space: Space, linear: number): number {
  if (space === 'linear') return linear;
  return space === 'rec709' ? linearToRec709(Math.max(0, linear)) : linearToSrgb(Math.max(0, linear));
}
function fromWorking(space: Space, w: number): number {
  if (space === 'linear') return w;
  return space === 'rec709' ? rec709ToLinear(w) : srgbToLinear(w);
}

/**
 * Per channel, an 8-bit input maps to a working-space value through a fixed chain (decode,
 * exposure, white balance, contrast), so that chain is a 256-entry table per channel.
 */
function channelTables(g: EffectiveGrading): Float32Array[] {
  const gainExposure = 2 ** g.exposure;
  const gains = [1 + BALANCE * g.temperature, 1 - BALANCE * g.tint, 1 - BALANCE * g.temperature];
  const pivot = g.colorSpace === 'linear' ? 0.18 : 0.5;
  return gains.map((gain) => {
    const table = new Float32Array(256);
    for (let i = 0; i < 256; i++) {
      const e = i / 255;
      const w = g.exposure === 0 && g.colorSpace === 'srgb' ? e : toWorking(g.colorSpace, srgbToLinear(e) * gainExposure);
      table[i] = (w * gain - pivot) * g.contrast + pivot;
    }
    return table;
  });
}

/** Working space [0,1] back to sRGB bytes; identity (no table) when the working space is sRGB. */
function outputTable(space: Space): Float32Array | undefined {
  if (space === 'srgb') return undefined;
  const table = new Float32Array(OUT_STEPS + 1);
  for (let i = 0; i <= OUT_STEPS; i++) table[i] = linearToSrgb(Math.max(0, fromWorking(space, i / OUT_STEPS))) * 255;
  return table;
}

function toByte(w: number, table: Float32Array | undefined): number {
  const v = w < 0 ? 0 : w > 1 ? 1 : w;
  if (!table) return v * 255;
  const x = v * OUT_STEPS;
  const i = Math.floor(x);
  if (i >= OUT_STEPS) return table[OUT_STEPS] as number;
  const f = x - i;
  return (table[i] as number) * (1 - f) + (table[i + 1] as number) * f;
}

/** Position of an sRGB byte on a LUT axis: integer cell (0..size-2) and fraction. */
function lutAxis(lut: CubeLut, v: number, c: number, out: Float32Array, at: number): void {
  const lo = lut.domainMin[c] as number;
  const hi = lut.domainMax[c] as number;
  const n1 = lut.size - 1;
  let x = ((v / 255 - lo) / (hi - lo)) * n1;
  x = x < 0 ? 0 : x > n1 ? n1 : x;
  const i = Math.min(Math.floor(x), n1 - 1);
  out[at] = i;
  out[at + 1] = x - i;
}

const axes = new Float32Array(6);

/** Trilinear lookup of sRGB-encoded [0,255] values; writes 0-255 floats into `out`. */
export function applyLut(lut: CubeLut, r: number, g: number, b: number, out: Float32Array): void {
  const n = lut.size;
  lutAxis(lut, r, 0, axes, 0);
  lutAxis(lut, g, 1, axes, 2);
  lutAxis(lut, b, 2, axes, 4);
  const ri = axes[0] as number;
  const fr = axes[1] as number;
  const gi = axes[2] as number;
  const fg = axes[3] as number;
  const bi = axes[4] as number;
  const fb = axes[5] as number;
  const t = lut.table;
  // Corner offsets in the table: red is the fastest axis, then green, then blue.
  const base = ((bi * n + gi) * n + ri) * 3;
  const dr = 3;
  const dg = n * 3;
  const db = n * n * 3;
  for (let c = 0; c < 3; c++) {
    const p = base + c;
    const c00 = (t[p] as number) * (1 - fr) + (t[p + dr] as number) * fr;
    const c10 = (t[p + dg] as number) * (1 - fr) + (t[p + dg + dr] as number) * fr;
    const c01 = (t[p + db] as number) * (1 - fr) + (t[p + db + dr] as number) * fr;
    const c11 = (t[p + db + dg] as number) * (1 - fr) + (t[p + db + dg + dr] as number) * fr;
    const c0 = c00 * (1 - fg) + c10 * fg;
    const c1 = c01 * (1 - fg) + c11 * fg;
    out[c] = (c0 * (1 - fb) + c1 * fb) * 255;
  }
}

/** A 32-bit integer hash (murmur3 finalizer) of a cell and seed, as a number in [-1, 1). */
export function grainNoise(seed: number, x: number, y: number): number {
  let h = (seed ^ Math.imul(x, 0x27d4eb2d) ^ Math.imul(y, 0x165667b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 0x80000000 - 1;
}

function smoothstep(lo: number, hi: number, x: number): number {
  if (hi <= lo) return x < lo ? 0 : 1;
  const t = Math.min(1, Math.max(0, (x - lo) / (hi - lo)));
  return t * t * (3 - 2 * t);
}

let vignetteCache: { key: string; map: Float32Array } | undefined;

/** Vignette strength per pixel (0 centre .. 1 corners), cached: it depends only on size and feather. */
function vignetteMap(width: number, height: number, feather: number): Float32Array {
  const key = `${width}x${height}:${feather}`;
  if (vignetteCache?.key === key) return vignetteCache.map;
  const map = new Float32Array(width * height);
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const corner = Math.hypot(cx, cy) || 1;
  const lo = 0.5 * (1 - feather);
  const hi = 1 - lo;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) map[y * width + x] = smoothstep(lo, hi, Math.hypot(x - cx, y - cy) / corner);
  vignetteCache = { key, map };
  return map;
}

/** True when the grading changes nothing, so the caller can skip the pixel pass entirely. */
export function isIdentity(g: EffectiveGrading, lut: CubeLut | undefined): boolean {
  return (
    !lut &&
    g.exposure === 0 &&
    g.contrast === 1 &&
    g.saturation === 1 &&
    g.vibrance === 0 &&
    g.temperature === 0 &&
    g.tint === 0 &&
    g.vignette === 0 &&
    g.grain === 0 &&
    g.blur === 0 &&
    g.pixelate <= 1
  );
}

export function gradePixels({ data, width, height, grading: g, lut, grainSeed }: GradeInput): void {
  if (g.pixelate > 1) pixelateRgba(data, width, height, g.pixelate);
  if (g.blur > 0) blurRgba(data, width, height, g.blur);
  const [tr, tg, tb] = channelTables(g) as [Float32Array, Float32Array, Float32Array];
  const out = outputTable(g.colorSpace);
  const lutOut = new Float32Array(3);
  const vignette = g.vignette > 0 ? vignetteMap(width, height, g.vignetteFeather) : undefined;
  const [vr, vg, vb] = g.vignetteColor;
  const grainSize = Math.max(1, Math.round(g.grainSize));
  const grainScale = g.grain * GRAIN_AMPLITUDE * 255;
  const sat = g.saturation;
  const vib = g.vibrance;
  // Without saturation or vibrance every channel is a function of itself: one byte table each.
  const cross = sat !== 1 || vib !== 0;
  const bytes = cross ? undefined : [tr, tg, tb].map((table) => Uint8ClampedArray.from(table, (w) => toByte(w, out)));
  const [br, bg, bb] = (bytes ?? []) as Uint8ClampedArray[];
  const perPixel = lut !== undefined || g.vignette > 0 || grainScale > 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (br && bg && bb) {
        data[i] = br[data[i] as number] as number;
        data[i + 1] = bg[data[i + 1] as number] as number;
        data[i + 2] = bb[data[i + 2] as number] as number;
        if (!perPixel) continue;
      }
      let R: number;
      let G: number;
      let B: number;
      if (cross) {
        let r = tr[data[i] as number] as number;
        let gg = tg[data[i + 1] as number] as number;
        let b = tb[data[i + 2] as number] as number;
        const luma = LUMA[0] * r + LUMA[1] * gg + LUMA[2] * b;
        // Vibrance boosts muted colours more than saturated ones (chroma = max - min).
        const cmax = r > gg ? (r > b ? r : b) : gg > b ? gg : b;
        const cmin = r < gg ? (r < b ? r : b) : gg < b ? gg : b;
        const chroma = Math.min(1, Math.max(0, cmax - cmin));
        const k = sat * (1 + vib * (1 - chroma));
        r = luma + (r - luma) * k;
        gg = luma + (gg - luma) * k;
        b = luma + (b - luma) * k;
        R = toByte(r, out);
        G = toByte(gg, out);
        B = toByte(b, out);
      } else {
        R = data[i] as number;
        G = data[i + 1] as number;
        B = data[i + 2] as number;
      }
      if (lut) {
        applyLut(lut, R, G, B, lutOut);
        R = lutOut[0] as number;
        G = lutOut[1] as number;
        B = lutOut[2] as number;
      }
      if (vignette) {
        const a = g.vignette * (vignette[y * width + x] as number);
        R += (vr - R) * a;
        G += (vg - G) * a;
        B += (vb - B) * a;
      }
      if (grainScale > 0) {
        const n = grainNoise(grainSeed, Math.floor(x / grainSize), Math.floor(y / grainSize)) * grainScale;
        R += n;
        G += n;
        B += n;
      }
      // Uint8ClampedArray rounds half to even and clamps.
      data[i] = R;
      data[i + 1] = G;
      data[i + 2] = B;
    }
  }
}
