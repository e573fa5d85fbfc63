import { describe, expect, it } from 'vitest';
import { parseStillAt, parseStillFrame, parseStillList, parseStillTime, stillFrame } from './still-times.js';

const FPS = { num: 30, den: 1 };

describe('still times', () => {
  it.each([
    ['1.5s', 1.5],
    ['1500ms', 1.5],
    ['1.5', 1.5],
    [' 2S ', 2],
    ['.5', 0.5],
    ['0', 0],
    [3, 3],
  ])('%j is %s s', (text, seconds) => {
    expect(parseStillTime(text)).toEqual({ ok: true, value: seconds });
  });

  it.each([['-1s'], ['1.5 sec'], ['1,5'], [''], ['s'], [-2], [Number.NaN], [null]])('refuses %j with the forms to use', (text) => {
    const parsed = parseStillTime(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/1\.5/);
  });

  it('frames are whole numbers of 0 or more', () => {
    expect(parseStillFrame('45')).toEqual({ ok: true, value: 45 });
    expect(parseStillFrame(0)).toEqual({ ok: true, value: 0 });
    for (const bad of ['4.5', '-1', 'x', 1.5, '99999999999999999999']) expect(parseStillFrame(bad).ok).toBe(false);
  });

  it('lists name the item that is wrong', () => {
    expect(parseStillList('0,1.5s,3000ms', parseStillTime)).toEqual({ ok: true, value: [0, 1.5, 3] });
    expect(parseStillList('0,x', parseStillFrame)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^item 2: "x" is not a frame number/),
    });
  });

  it('a body still is exactly one of time or frame', () => {
    expect(parseStillAt({ time: '1.5s' })).toEqual({ ok: true, value: { time: 1.5 } });
    expect(parseStillAt({ frame: 45 })).toEqual({ ok: true, value: { frame: 45 } });
    expect(parseStillAt({ time: 1, frame: 2 })).toMatchObject({
      ok: false,
      message: expect.stringContaining('exactly one of time or frame'),
    });
    expect(parseStillAt({ time: 'soon' })).toMatchObject({ ok: false, message: expect.stringMatching(/^time: "soon" is not a time/) });
    expect(parseStillAt('1.5s')).toMatchObject({ ok: false });
  });

  it('a time shows the frame on screen then; past the end is refused with the valid times', () => {
    // 5 s at 30 fps: frames 0-149.
    expect(stillFrame({ time: 1.5 }, FPS, 150, '--time')).toEqual({ ok: true, value: 45 });
    expect(stillFrame({ time: 1.51 }, FPS, 150, '--time')).toEqual({ ok: true, value: 45 });
    expect(stillFrame({ time: 4.99 }, FPS, 150, '--time')).toEqual({ ok: true, value: 149 });
    expect(stillFrame({ time: 5 }, FPS, 150, '--time')).toEqual({
      ok: false,
      message:
        '--time 5s is past the end: the composition is 5 s long (150 frames at 30 fps); give a time from 0 to under 5s (its last frame shows from 4.967s)',
    });
    expect(stillFrame({ frame: 149 }, FPS, 150, '--frame')).toEqual({ ok: true, value: 149 });
    expect(stillFrame({ frame: 150 }, FPS, 150, '--frame')).toMatchObject({
      ok: false,
      message: expect.stringContaining('numbered 0-149'),
    });
    // NTSC: frame 45 at 30000/1001 is at 1.5015 s.
    expect(stillFrame({ time: 1.5015 }, { num: 30000, den: 1001 }, 150, '--time')).toEqual({ ok: true, value: 45 });
  });
});
