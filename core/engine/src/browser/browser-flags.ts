export type CaptureMode = 'beginframe' | 'screenshot' | 'canvas';

/**
 * canvas mode: beginframe's deterministic frames, plus Chromium's HTML-in-canvas
 * (`drawElementImage`, behind a Blink flag in Chromium 156). Local Network Access checks are off
 * because the canvas host page is answered by DevTools (canvas-host.ts) and so has no address of
 * its own: Chromium then counts it as public and refuses its frame sender the loopback frame
 * receiver. The composition inside it is served from loopback as always, which that check never
 * restricted.
 */
export const CANVAS_FLAGS = ['--enable-blink-features=CanvasDrawElement', '--disable-features=LocalNetworkAccessChecks'] as const;

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

export function browserArgs(opts: {
  mode: CaptureMode;
  gpu?: boolean;
  width: number;
  height: number;
  scale?: number | undefined;
  jsHeapLimitMB?: number | undefined;
}): string[] {
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
    // --scale: beginFrame paints the window's own surface, which an emulated device scale factor
    // does not enlarge; the browser-wide factor does (and screenshot capture agrees with it).
    ...(opts.scale !== undefined && opts.scale !== 1 ? [`--force-device-scale-factor=${opts.scale}`] : []),
    ...(opts.mode === 'screenshot' ? [] : BEGIN_FRAME_FLAGS),
    ...(opts.mode === 'canvas' ? CANVAS_FLAGS : []),
    // V8 stops a page's JavaScript heap here (the renderer ends with "V8 javascript OOM"), long
    // before a script that keeps allocating could take the machine.
    ...(opts.jsHeapLimitMB === undefined ? [] : [`--js-flags=--max-old-space-size=${opts.jsHeapLimitMB}`]),
  ];
}

/**
 * One `--js-flags` holding every V8 flag given: Chromium keeps only the last of a repeated
 * switch, so a host's own `--js-flags` (in BrowserInfo.extraArgs) would silently drop the heap limit.
 */
export function mergeJsFlags(args: readonly string[]): string[] {
  const prefix = '--js-flags=';
  const v8 = args
    .filter((arg) => arg.startsWith(prefix))
    .map((arg) => arg.slice(prefix.length).trim())
    .filter(Boolean);
  if (v8.length < 2) return [...args];
  const others = args.filter((arg) => !arg.startsWith(prefix));
  return [...others, `${prefix}${v8.join(' ')}`];
}
