import { describe, expect, it } from 'vitest';
import { frameTime } from '@seekframe/composition';
import { durationText, shortestDecimal, startsAtFrame, startText } from './timing-text.js';

const F30 = { num: 30, den: 1 };
const F10 = { num: 10, den: 1 };
const NTSC = { num: 30000, den: 1001 };

describe('startText', () => {
  it('writes seconds as the shortest number that starts on the frame', () => {
    expect(startText('2', 2, 23, F10)).toBe('2.3');
    expect(startText('0', 0, 1, F30)).toBe('0.03');
    expect(startsAtFrame(Number(startText('0', 0, 1, NTSC)), 1, NTSC)).toBe(true);
    expect(startText('1.5', 1.5, 0, F10)).toBe('0');
  });

  it("keeps a relative start's reference and spacing and changes its offset", () => {
    // title = intro (ends at 1) + 0.5; moved 2 frames later at 10 fps.
    expect(startText('intro + 0.5', 1.5, 17, F10)).toBe('intro + 0.7');
    expect(startText('intro+0.5', 1.5, 13, F10)).toBe('intro+0.3');
    expect(startText('intro', 1, 12, F10)).toBe('intro + 0.2');
    expect(startText('intro + 0.5', 1.5, 8, F10)).toBe('intro - 0.2');
    expect(startText('intro + 0.5', 1.5, 10, F10)).toBe('intro');
  });

  it('lands on the exact frame at NTSC rates, where rounding would miss it', () => {
    for (const frame of [1, 2, 29, 30, 31, 299]) {
      expect(startsAtFrame(Number(startText('0', 0, frame, NTSC)), frame, NTSC), `frame ${frame}`).toBe(true);
      const rel = startText('a + 0.1', 1.1, frame + 40, NTSC);
      const offset = Number(rel.replace(/^a \+ /, ''));
      expect(startsAtFrame(1 + offset, frame + 40, NTSC), rel).toBe(true);
    }
  });
});

describe('durationText', () => {
  it('gives the length that ends just before the frame', () => {
    expect(durationText(1.5, 25, F10)).toBe('1');
    expect(durationText(0.1, 5, F30)).toBe('0.06');
    const d = Number(durationText(frameTime(3, NTSC), 40, NTSC));
    expect(frameTime(3, NTSC) + d).toBeLessThanOrEqual(frameTime(40, NTSC));
    expect(frameTime(3, NTSC) + d).toBeGreaterThan(frameTime(39, NTSC));
  });
});

describe('shortestDecimal', () => {
  it('prefers fewer decimals', () => {
    expect(shortestDecimal(1.23456, (v) => Math.abs(v - 1.23456) < 0.01)).toBe('1.23');
    expect(shortestDecimal(2, () => true)).toBe('2');
  });
});
