import { describe, expect, it } from 'vitest';
import { formatTimecode, parseTimecode } from './timecode.js';

const fps30 = { num: 30, den: 1 };
const ntsc = { num: 30000, den: 1001 };

describe('timecode', () => {
  it('formats frames as HH:MM:SS:FF at the nominal rate', () => {
    expect(formatTimecode(0, fps30)).toBe('00:00:00:00');
    expect(formatTimecode(31, fps30)).toBe('00:00:01:01');
    expect(formatTimecode(30 * 3661 + 29, fps30)).toBe('01:01:01:29');
    expect(formatTimecode(45, { num: 10, den: 1 })).toBe('00:00:04:05');
    expect(formatTimecode(30, ntsc)).toBe('00:00:01:00');
  });

  it('reads timecodes, short forms and seconds, and refuses out-of-range fields', () => {
    for (const frame of [0, 1, 29, 30, 1799, 1800, 108_029]) expect(parseTimecode(formatTimecode(frame, fps30), fps30)).toBe(frame);
    expect(parseTimecode('1:05', fps30)).toBe(35);
    expect(parseTimecode('02:00:00', fps30)).toBe(3600);
    expect(parseTimecode('1.5s', fps30)).toBe(45);
    expect(parseTimecode(' 0.1 S ', { num: 10, den: 1 })).toBe(1);
    expect(parseTimecode('00:00:00:30', fps30)).toBeUndefined();
    expect(parseTimecode('00:61:00:00', fps30)).toBeUndefined();
    expect(parseTimecode('abc', fps30)).toBeUndefined();
    expect(parseTimecode('12', fps30)).toBeUndefined();
  });
});
