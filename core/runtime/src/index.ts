export { injectRuntime, isRuntimeInjected, RUNTIME_MARKER } from './inject-runtime.js';
export { documentRuntimeConfig, type DocumentToConfigure, type SharedRuntimeConfig } from './document-runtime-config.js';
export { readRootMetadata, type RootMetadata } from './browser/composition-root.js';
export type { PlayerSettings } from './browser/player-settings.js';
export { InjectedConfigSchema, type InjectedConfig } from './injected-config.js';
export type {
  SeekframeRuntime,
  TimelineClip,
  MediaClip,
  VideoFrameSource,
  VideoFrameMap,
  PlaybackState,
  RuntimeWarning,
  InspectedAnimation,
  InspectedCaptions,
  InspectedClip,
  InspectedElement,
  InspectedLabel,
  TimelineInspection,
  FrameBox,
  ElementRef,
  FrameProbeRequest,
  FrameProbe,
  TextBlock,
} from './runtime-types.js';
