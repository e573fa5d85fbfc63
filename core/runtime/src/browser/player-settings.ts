/**
 * Set by `<seekframe-player>` on its `<iframe>` element before the frame navigates, so a player
 * can give the composition its variables without rebuilding the page: the runtime reads it
 * synchronously from `window.frameElement` when it starts (same-origin frames only).
 */
export interface PlayerSettings {
  /** Top-level overrides; they win over the injected config's `variables`. */
  variables?: Record<string, unknown>;
}

declare global {
  interface HTMLIFrameElement {
    __seekframePlayer?: PlayerSettings;
  }
}
