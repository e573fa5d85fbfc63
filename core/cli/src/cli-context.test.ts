import { describe, expect, it } from 'vitest';
import { colorEnabled } from './cli-context.js';

describe('colorEnabled', () => {
  const tty = { write: () => true, isTTY: true };
  const pipe = { write: () => true, isTTY: false };

  it('colors a terminal and not a pipe', () => {
    expect(colorEnabled({}, tty)).toBe(true);
    expect(colorEnabled({}, pipe)).toBe(false);
  });

  it('honours NO_COLOR, FORCE_COLOR and TERM=dumb', () => {
    expect(colorEnabled({ NO_COLOR: '1' }, tty)).toBe(false);
    expect(colorEnabled({ FORCE_COLOR: '1' }, pipe)).toBe(true);
    expect(colorEnabled({ FORCE_COLOR: '0' }, tty)).toBe(false);
    expect(colorEnabled({ TERM: 'dumb' }, tty)).toBe(false);
  });
});
