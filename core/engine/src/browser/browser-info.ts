export interface BrowserInfo {
  /** The real executable (wrapper scripts are resolved). */
  path: string;
  source: 'env' | 'cache' | 'system';
  kind: 'headless-shell' | 'chromium';
  /** Version number from `--version`, e.g. `156.0.8078.79`. */
  version: string;
  /** Established by a real HeadlessExperimental.beginFrame call. */
  supportsBeginFrame: boolean;
  /** HTML-in-canvas capture works (a real launch with the canvas flags found drawElementImage); absent = no. */
  supportsCanvasCapture?: boolean;
  /** The wrapper script found first, when `path` was resolved from one (Debian's /usr/bin/*). */
  wrapper?: string;
  /** Flags added to every launch of this browser, e.g. the producer server's network sandbox. */
  extraArgs?: readonly string[];
}
