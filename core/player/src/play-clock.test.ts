import { describe, expect, it } from 'vitest';
import { PlayClock } from './play-clock.js';

describe('PlayClock', () => {
  it('advances from the anchor in seconds of wall time', () => {
    const clock = new PlayClock();
    clock.start(0.5, 1000);
    expect(clock.at(1250, 2, false)).toEqual({ time: 0.75, ended: false });
    expect(clock.at(900, 2, false)).toEqual({ time: 0.5, ended: false });
  });

  it('holds at the end without loop and wraps with loop', () => {
    const clock = new PlayClock();
    clock.start(1.5, 0);
    expect(clock.at(1000, 2, false)).toEqual({ time: 2, ended: true });
    expect(clock.at(1000, 2, true)).toEqual({ time: 0.5, ended: false });
  });

  it('treats a zero duration as ended unless looping', () => {
    const clock = new PlayClock();
    clock.start(0, 0);
    expect(clock.at(10, 0, false)).toEqual({ time: 0, ended: true });
    expect(clock.at(10, 0, true)).toEqual({ time: 0, ended: false });
  });
});

describe('PlayClock rate and range', () => {
  it('plays at a rate, backwards too, holding at the start without loop', () => {
    const clock = new PlayClock();
    clock.start(1, 0, 2);
    expect(clock.at(250, 4, false)).toEqual({ time: 1.5, ended: false });
    clock.start(1, 0, -1);
    expect(clock.at(500, 4, false)).toEqual({ time: 0.5, ended: false });
    expect(clock.at(2000, 4, false)).toEqual({ time: 0, ended: true });
  });

  it('loops inside a range, both ways, whatever loop says', () => {
    const clock = new PlayClock();
    clock.start(1.5, 0);
    expect(clock.at(600, 4, false, { start: 1, end: 2 })).toEqual({ time: 1.1, ended: false });
    clock.start(1.2, 0, -1);
    expect(clock.at(300, 4, false, { start: 1, end: 2 }).time).toBeCloseTo(1.9, 9);
  });
});
