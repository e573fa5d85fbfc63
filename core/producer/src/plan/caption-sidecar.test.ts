import { describe, expect, it } from 'vitest';
import { planCaptionSidecar } from './caption-sidecar.js';

const DECLARATIONS = [{ id: 'subs', type: 'captions' as const, label: 'Subtitles', default: [] }];
const TRACK = [
  { start: 0, end: 1, text: 'first' },
  { start: 2, end: 3, text: 'second' },
];

const sidecar = (totalFrames: number, firstFrame?: number) =>
  planCaptionSidecar({
    file: 'out.vtt',
    variable: undefined,
    declarations: DECLARATIONS,
    variables: { subs: TRACK },
    fps: { num: 10, den: 1 },
    totalFrames,
    ...(firstFrame === undefined ? {} : { firstFrame }),
    source: 'index.html',
  });

describe('caption sidecar of a span (--frames)', () => {
  it('moves the cues to the output: cut at its start, none from before it', () => {
    expect(sidecar(40).text).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nfirst\n\n00:00:02.000 --> 00:00:03.000\nsecond\n');
    // Frames 5-24: "first" shows for its last half second, "second" from 1.5 s of the output.
    expect(sidecar(20, 5).text).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:00.500\nfirst\n\n00:00:01.500 --> 00:00:02.000\nsecond\n');
    // Frames 12-19 fall between the two cues: the file has none.
    expect(sidecar(8, 12)).toMatchObject({ cues: 0 });
  });
});
