import { describe, expect, it } from 'vitest';
import { chooseCaptureMode } from './choose-capture-mode.js';

const shell = { path: '/usr/lib/chromium/chromium-headless-shell', kind: 'headless-shell' as const, supportsBeginFrame: true };
const full = { path: '/usr/lib/chromium/chromium', kind: 'chromium' as const, supportsBeginFrame: false };

describe('chooseCaptureMode', () => {
  it('auto picks beginframe when the browser supports it', () => {
    expect(chooseCaptureMode('auto', shell)).toMatchObject({ mode: 'beginframe', fellBack: false });
  });

  it('auto falls back to screenshot and says why and how to fix it', () => {
    const decision = chooseCaptureMode('auto', full);
    expect(decision).toMatchObject({ mode: 'screenshot', fellBack: true });
    expect(decision.reason).toContain('does not support HeadlessExperimental.beginFrame');
    expect(decision.reason).toContain('apt-get install chromium-headless-shell');
  });

  it('an explicit mode is kept as asked', () => {
    expect(chooseCaptureMode('screenshot', shell)).toMatchObject({ mode: 'screenshot', fellBack: false });
    expect(chooseCaptureMode('beginframe', full)).toMatchObject({ mode: 'beginframe', fellBack: false });
  });
});
