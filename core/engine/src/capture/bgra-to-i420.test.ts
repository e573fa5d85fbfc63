import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BGRA_TO_I420_WASM } from './bgra-to-i420-wasm.js';

/** The maths of bgra-to-i420.wat, pixel by pixel, in plain TypeScript. */
function reference(bgra: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array((width * height * 3) / 2);
  for (let i = 0; i < width * height; i++) out[i] = (47 * bgra[i * 4 + 2]! + 157 * bgra[i * 4 + 1]! + 16 * bgra[i * 4]! + 4224) >> 8;
  const u = width * height;
  const v = u + u / 4;
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const p = ((y + dy) * width + x + dx) * 4;
        b += bgra[p]!;
        g += bgra[p + 1]!;
        r += bgra[p + 2]!;
      }
      const c = (y / 2) * (width / 2) + x / 2;
      out[u + c] = (-26 * r - 86 * g + 112 * b + 131584) >> 10;
      out[v + c] = (112 * r - 102 * g - 10 * b + 131584) >> 10;
    }
  }
  return out;
}

describe('bgra-to-i420 (WebAssembly)', () => {
  it('gives exactly the reference planes, and white, black and a CSS colour as BT.709 limited range', async () => {
    const { instance } = await WebAssembly.instantiate(Buffer.from(BGRA_TO_I420_WASM, 'base64'));
    const memory = instance.exports.memory as WebAssembly.Memory;
    const convert = instance.exports.convert as (src: number, dst: number, width: number, height: number) => void;
    const [width, height] = [24, 6];
    const size = width * height * 4;
    const pixels = new Uint8Array(randomBytes(size));
    // Three solid columns of known colours (8 pixels wide, all rows): white, black, #7c5cff.
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < 24; x++) {
        const p = (y * width + x) * 4;
        const [r, g, b] = x < 8 ? [255, 255, 255] : x < 16 ? [0, 0, 0] : [0x7c, 0x5c, 0xff];
        pixels.set([b, g, r, 255], p);
      }
    }
    new Uint8Array(memory.buffer, 0, size).set(pixels);
    convert(0, size, width, height);
    const out = new Uint8Array(memory.buffer, size, (width * height * 3) / 2);
    expect([...out]).toEqual([...reference(pixels, width, height)]);
    const u = width * height;
    const v = u + u / 4;
    expect([out[0], out[u], out[v]]).toEqual([235, 128, 128]); // white
    expect([out[8], out[u + 4], out[v + 4]]).toEqual([16, 128, 128]); // black
    // #7c5cff in BT.709 limited range, from the standard's formulas: Y' 110.96, Cb 196.37, Cr 135.50.
    expect(Math.abs(out[16]! - 110.96)).toBeLessThanOrEqual(1);
    expect(Math.abs(out[u + 8]! - 196.37)).toBeLessThanOrEqual(1);
    expect(Math.abs(out[v + 8]! - 135.5)).toBeLessThanOrEqual(1);
  });

  it('bgra-to-i420-wasm.ts is what the .wat assembles to', async () => {
    const script = fileURLToPath(new URL('../../scripts/build-bgra-to-i420.mjs', import.meta.url));
    await expect(promisify(execFile)(process.execPath, [script, '--check'])).resolves.toBeDefined();
  });
});
