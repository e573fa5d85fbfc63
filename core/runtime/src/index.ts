export { injectRuntime, toInlineScriptJson } from './inject-runtime.js';
export { InjectedConfigSchema, type InjectedConfig } from './injected-config.js';
export type { SeekframeRuntime, MediaClip, VideoFrameSource, VideoFrameMap } from './runtime-types.js';
