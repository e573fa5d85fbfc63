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

describe('renderApiSettingsFromEnv: RENDER_API_TOKEN', () => {
  it('takes a token, trimmed', () => {
    expect(renderApiSettingsFromEnv({ RENDER_API_TOKEN: ' s3cret-token \n' }).token).toBe('s3cret-token');
    expect(renderApiSettingsFromEnv({}).token).toBeUndefined();
  });

  it.each(['', ' ', '\t\n', '   '])(
    'refuses RENDER_API_TOKEN=%j (set but blank would turn auth off) with invalid-server-options',
    (value) => {
      expect(() => renderApiSettingsFromEnv({ RENDER_API_TOKEN: value })).toThrowError(
        expect.objectContaining({
          code: 'invalid-server-options',
          message: expect.stringMatching(/RENDER_API_TOKEN is set but blank.*remove the variable to run without a token/),
          details: { variable: 'RENDER_API_TOKEN' },
        }),
      );
    },
  );
});
