import { describe, expect, it } from 'vitest';
import { chooseCaptureMode } from './choose-capture-mode.js';

const shell = { path: '/usr/lib/chromium/chromium-headless-shell', kind: 'headless-shell' as const, supportsBeginFrame: true };
const canvasShell = { ...shell, supportsCanvasCapture: true };
const full = { path: '/usr/lib/chromium/chromium', kind: 'chromium' as const, supportsBeginFrame: false };

describe('chooseCaptureMode', () => {
  it('auto picks canvas when the browser has HTML-in-canvas and the render allows it', () => {
    const decision = chooseCaptureMode('auto', canvasShell);
    expect(decision).toMatchObject({ mode: 'canvas', fellBack: false });
    expect(decision.reason).toContain('drawElementImage');
  });

  it('auto picks beginframe when the browser has beginFrame but no HTML-in-canvas', () => {
    expect(chooseCaptureMode('auto', shell)).toMatchObject({ mode: 'beginframe', fellBack: false });
  });

  it('auto keeps canvas for transparent, scaled and sandboxed renders, and leaves it to callers that do not look for blockers', () => {
    expect(chooseCaptureMode('auto', canvasShell, {}).mode).toBe('canvas');
    const decision = chooseCaptureMode('auto', canvasShell, { allowCanvas: false });
    expect(decision.mode).toBe('beginframe');
    expect(decision.reason).toContain('as it is');
  });

  it('auto falls back to screenshot and says why and how to fix it', () => {
    const decision = chooseCaptureMode('auto', full);
    expect(decision).toMatchObject({ mode: 'screenshot', fellBack: true });
    expect(decision.reason).toContain('does not support HeadlessExperimental.beginFrame');
    expect(decision.reason).toContain('apt-get install chromium-headless-shell');
  });

  it('an explicit mode is kept as asked; an explicit canvas the render cannot use becomes beginframe, with the reason', () => {
    expect(chooseCaptureMode('screenshot', canvasShell)).toMatchObject({ mode: 'screenshot', fellBack: false });
    expect(chooseCaptureMode('beginframe', full)).toMatchObject({ mode: 'beginframe', fellBack: false });
    expect(chooseCaptureMode('canvas', canvasShell)).toMatchObject({ mode: 'canvas', fellBack: false });
    const noCanvas = chooseCaptureMode('canvas', shell);
    expect(noCanvas.mode).toBe('beginframe');
    expect(noCanvas.reason).toContain('--capture-mode canvas requested');
  });
});
