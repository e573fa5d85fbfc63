export type { BrowserInfo } from './browser-info.js';
export { findBrowser, findCachedHeadlessShell, type FindBrowserOptions } from './find-browser.js';
export { probeBeginFrame } from './probe-begin-frame.js';
export { findFfmpeg, CHECKED_ENCODERS, type CheckedEncoder, type FfmpegInfo } from './find-ffmpeg.js';
export { autoWorkerCount, parseWorkers, MAX_WORKERS, type AutoWorkerInput } from './worker-count.js';
export { launchBrowser, type BrowserSession, type LaunchOptions } from './launch-browser.js';
export { browserArgs, type CaptureMode } from './browser-flags.js';
export { openCapturePage, type CapturePage, type CapturePageOptions, type CapturedFrame } from './capture-page.js';
