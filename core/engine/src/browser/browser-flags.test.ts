import { describe, expect, it } from 'vitest';
import { browserArgs, mergeJsFlags } from './browser-flags.js';

describe('the JavaScript heap limit flag', () => {
  it("is given only with a limit, and survives a host's own --js-flags", () => {
    expect(browserArgs({ mode: 'screenshot', width: 10, height: 10 }).some((arg) => arg.startsWith('--js-flags'))).toBe(false);
    const args = [
      ...browserArgs({ mode: 'screenshot', width: 10, height: 10, jsHeapLimitMB: 768 }),
      '--js-flags=--expose-gc',
      '--mute-audio',
    ];
    const merged = mergeJsFlags(args);
    expect(merged.filter((arg) => arg.startsWith('--js-flags='))).toEqual(['--js-flags=--max-old-space-size=768 --expose-gc']);
    expect(merged).toContain('--mute-audio');
    expect(mergeJsFlags(['--a', '--js-flags=--x'])).toEqual(['--a', '--js-flags=--x']);
  });
});
