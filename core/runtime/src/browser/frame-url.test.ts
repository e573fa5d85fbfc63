import { describe, expect, it } from 'vitest';
import { frameUrl } from './video-frame-overlay.js';

describe('frameUrl', () => {
  it('fills %06d with the 1-based frame number, as ffmpeg numbers extracted frames', () => {
    expect(frameUrl('/frames/v/frame_%06d.jpg', 0)).toBe('/frames/v/frame_000001.jpg');
    expect(frameUrl('/f/%06d.png', 122)).toBe('/f/000123.png');
    expect(frameUrl('/f/%d.png', 9)).toBe('/f/10.png');
  });
});
