export type CaptureMode = 'beginframe' | 'screenshot';

/**
 * Flags that keep Chromium from phoning home. Without them it stalls for seconds on a closed
 * network (component updates, sync, QUIC probes) and renders become slow and flaky.
 */
export const CLOSED_NETWORK_FLAGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
] as const;

/**
 * beginframe mode: the compositor paints only when we send HeadlessExperimental.beginFrame, so
 * each frame is exactly one deterministic paint. Threaded animation/scrolling and checker imaging
 * would let the compositor paint on its own schedule, so they are off.
 */
export const BEGIN_FRAME_FLAGS = [
  '--deterministic-mode',
  '--enable-begin-frame-control',
  '--run-all-compositor-stages-before-draw',
  '--disable-new-content-rendering-timeout',
  '--disable-threaded-animation',
  '--disable-threaded-scrolling',
  '--disable-checker-imaging',
] as const;

export function browserArgs(opts: { mode: CaptureMode; gpu?: boolean; width: number; height: number }): string[] {
  return [
    ...CLOSED_NETWORK_FLAGS,
    ...(opts.gpu ? [] : ['--disable-gpu']),
    // /dev/shm is tiny in containers; Chromium then crashes on big pages.
    '--disable-dev-shm-usage',
    // Colours in the capture must match the CSS values, whatever the host's display profile.
    '--force-color-profile=srgb',
    '--font-render-hinting=none',
    '--hide-scrollbars',
    '--mute-audio',
    `--window-size=${opts.width},${opts.height}`,
    ...(opts.mode === 'beginframe' ? BEGIN_FRAME_FLAGS : []),
  ];
}
