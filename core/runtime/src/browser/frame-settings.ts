import type { InstanceInfo } from './instance-info.js';
import type { PlayerSettings } from './player-settings.js';

/** What a same-origin parent puts on this window's `<iframe>` element before it navigates. */
interface FrameSettings {
  __seekframeInstance: InstanceInfo;
  __seekframePlayer: PlayerSettings;
}

/**
 * Reads one of them synchronously from `window.frameElement`; undefined when the window is not
 * in a frame, the parent is cross-origin (not one of ours) or the setting is missing.
 */
export function readFrameSetting<K extends keyof FrameSettings>(win: Window, key: K): FrameSettings[K] | undefined {
  try {
    const value = (win.frameElement as HTMLIFrameElement | null)?.[key];
    return value && typeof value === 'object' ? (value as FrameSettings[K]) : undefined;
  } catch {
    return undefined;
  }
}
