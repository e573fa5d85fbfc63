import type { SeekframeRuntime } from '../runtime-types.js';

/** What a child runtime exposes to its parent besides the public protocol. */
export interface ChildRuntime extends SeekframeRuntime {
  /** Seek without going through the public queue's clamp to the parent's duration. */
  seek(t: number): Promise<void>;
}

/**
 * Set by the parent runtime on a sub-composition's `<iframe>` element before it navigates; the
 * child's runtime reads it synchronously from `window.frameElement` when it starts.
 */
export interface InstanceInfo {
  id: string;
  src: string;
  /** Parsed host `data-variable-values`. */
  hostValues: Record<string, unknown> | undefined;
  mode: 'render' | 'preview';
  seed: number;
  fps: number;
  epochMs: number;
  /** Host `data-duration`, which wins over the child file's own duration. */
  hostDuration: number | undefined;
  /** Absolute URLs of the host's `<head>` library scripts; a `<template>` child loads them first
   *  (in HyperFrames it shares the host's window, so it uses GSAP & co. without loading them). */
  inheritScripts: string[];
  attach(runtime: ChildRuntime): void;
}

declare global {
  interface HTMLIFrameElement {
    __seekframeInstance?: InstanceInfo;
  }
}
