import { describe, expect, it } from 'vitest';
import { processEnv, renderApiSettings, renderApiSettingsFromEnv } from './render-api-settings.js';

describe('renderApiSettingsFromEnv: RENDER_MAX_MEMORY_MB', () => {
  it('sets the memory bound of each render; unset leaves the CLI default', () => {
    expect(renderApiSettingsFromEnv({ RENDER_MAX_MEMORY_MB: ' 2048 ' }).limits).toEqual({ maxMemoryMB: 2048 });
    expect(renderApiSettingsFromEnv({}).limits).toEqual({});
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

describe('renderApiSettings: every variable set but unusable refuses the start, naming it', () => {
  const VARIABLES = [
    'RENDER_API_TOKEN',
    'RENDER_WEBHOOK_SECRET',
    'RENDER_WEBHOOK_ALLOW_LOOPBACK',
    'ALLOW_CUSTOM_HTML',
    'RENDER_MAX_FRAMES',
    'RENDER_MAX_SECONDS',
    'RENDER_MAX_MEMORY_MB',
    'RENDER_MAX_CONCURRENT',
    'RENDER_RETENTION_SECONDS',
  ];

  it.each(VARIABLES)('%s blank (empty or spaces) is refused, never read as unset', (name) => {
    for (const blank of ['', '  ', '\t\n']) {
      expect(() => renderApiSettings({}, { [name]: blank }), `${name}=${JSON.stringify(blank)}`).toThrowError(
        expect.objectContaining({
          code: 'invalid-server-options',
          details: { variable: name },
          message: expect.stringMatching(new RegExp(`^${name} is set but blank.*remove the variable`)),
        }),
      );
    }
  });

  it.each([
    ['RENDER_WEBHOOK_ALLOW_LOOPBACK', 'yes', /must be "true" or "false"/],
    ['RENDER_WEBHOOK_ALLOW_LOOPBACK', '1', /must be "true" or "false"/],
    ['ALLOW_CUSTOM_HTML', 'ture', /must be "true" or "false"/],
    ['RENDER_MAX_FRAMES', '1e4', /whole number/],
    ['RENDER_MAX_SECONDS', '0', /whole number of at least 1/],
    ['RENDER_MAX_CONCURRENT', '-2', /whole number/],
    ['RENDER_RETENTION_SECONDS', '1.5', /whole number/],
    ['RENDER_MAX_FRAMES', '99999999999999999999', /whole number/],
  ])('%s=%s is refused (%s)', (name, value, message) => {
    expect(() => renderApiSettings({}, { [name]: value })).toThrowError(
      expect.objectContaining({ code: 'invalid-server-options', details: { variable: name }, message: expect.stringMatching(message) }),
    );
  });

  it('booleans read true/false in any case; numbers trimmed', () => {
    expect(
      renderApiSettings({}, { ALLOW_CUSTOM_HTML: 'TRUE', RENDER_WEBHOOK_ALLOW_LOOPBACK: ' False ', RENDER_MAX_FRAMES: ' 120 ' }),
    ).toMatchObject({
      allowCustomHtml: true,
      webhookAllowLoopback: false,
      limits: { maxFrames: 120 },
    });
  });
});

describe('renderApiSettings: the environment by default, options win field by field', () => {
  it('reads the process environment when no environment is given', () => {
    const before = process.env.RENDER_API_TOKEN;
    process.env.RENDER_API_TOKEN = 'from-the-process-env';
    try {
      expect(processEnv()).toBe(process.env);
      expect(renderApiSettings().token).toBe('from-the-process-env');
      expect(renderApiSettingsFromEnv().token).toBe('from-the-process-env');
    } finally {
      if (before === undefined) delete process.env.RENDER_API_TOKEN;
      else process.env.RENDER_API_TOKEN = before;
    }
  });

  it('an option given wins over its variable, the others still come from the environment', () => {
    const env = { RENDER_API_TOKEN: 'env-token', RENDER_MAX_FRAMES: '100', RENDER_MAX_SECONDS: '60', RENDER_MAX_CONCURRENT: '3' };
    expect(renderApiSettings({ token: 'code-token', limits: { maxFrames: 50 } }, env)).toEqual({
      token: 'code-token',
      allowCustomHtml: false,
      limits: { maxFrames: 50, maxRenderSeconds: 60 },
      maxConcurrentRenders: 3,
      webhookAllowLoopback: false,
    });
  });

  it('an option given blank is refused too (token, webhookSecret), naming the option and its variable', () => {
    expect(() => renderApiSettings({ token: ' ' }, {})).toThrowError(
      /The token option \(RENDER_API_TOKEN\) was given but blank, which would leave/,
    );
    expect(() => renderApiSettings({ webhookSecret: '' }, {})).toThrowError(
      /webhookSecret option \(RENDER_WEBHOOK_SECRET\) was given but blank/,
    );
  });
});
