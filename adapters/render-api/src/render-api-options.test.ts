import { describe, expect, it } from 'vitest';
import { renderApiSettingsFromEnv } from './render-api-options.js';

describe('renderApiSettingsFromEnv: RENDER_MAX_MEMORY_MB', () => {
  it('sets the memory bound of each render; unset leaves the CLI default', () => {
    expect(renderApiSettingsFromEnv({ RENDER_MAX_MEMORY_MB: ' 2048 ' }).limits).toEqual({ maxMemoryMB: 2048 });
    expect(renderApiSettingsFromEnv({}).limits).toEqual({});
    expect(renderApiSettingsFromEnv({ RENDER_MAX_MEMORY_MB: '' }).limits).toEqual({});
  });

  it('refuses to start with a bound a browser cannot work in, or no number', () => {
    expect(() => renderApiSettingsFromEnv({ RENDER_MAX_MEMORY_MB: '128' })).toThrow(/RENDER_MAX_MEMORY_MB must be at least 256 \(MB\)/);
    expect(() => renderApiSettingsFromEnv({ RENDER_MAX_MEMORY_MB: '2g' })).toThrow(/RENDER_MAX_MEMORY_MB must be a whole number/);
  });
});
