import { describe, expect, it } from 'vitest';
import { clipKeys, matchSources } from './clip-source.js';

describe('clip keys and sources', () => {
  const clips = [
    { id: 'intro', tag: 'div' },
    { id: undefined, tag: 'video' },
    { id: undefined, tag: 'div' },
    { id: undefined, tag: 'video' },
    { id: 'made-by-script', tag: 'p' },
  ];
  it('keys clips by id, else by their place among anonymous clips of the tag', () => {
    expect(clipKeys(clips)).toEqual(['intro', '<video>#1', '<div>#1', '<video>#2', 'made-by-script']);
  });

  it('finds each clip where it is written, and nothing for a clip the file does not have', () => {
    const sources = [
      { tag: 'div', id: 'intro', line: 3 },
      { tag: 'video', line: 4 },
      { tag: 'div', line: 5 },
      { tag: 'video', line: 6 },
    ];
    expect(matchSources(clips, sources).map((s) => s?.line)).toEqual([3, 4, 5, 6, undefined]);
  });
});
