/**
 * What each composition of corpus/conformance must show, at which second: a colour at a point
 * inside a flat area, or somewhere in a box (text), or its absence; alpha for the overlays.
 * Coordinates are the composition's CSS pixels (640x360).
 */
export type Probe = { t: number; tol?: number } & (
  | { at: [number, number]; rgb?: string; alpha?: [number, number] }
  | { box: [number, number, number, number]; has?: string; lacks?: string }
);

export interface ConformanceCase {
  name: string;
  /** What the registries' style it stands for is (the compatibility page lists these). */
  covers: string;
  format?: 'mp4' | 'webm' | 'mov';
  /** The render report's `length` (where the composition's length came from). */
  length?: { seconds: number; source: 'data-duration' | 'timeline' | 'animations' };
  probes: Probe[];
}

export const CASES: ConformanceCase[] = [
  {
    name: 'host-sized-card',
    covers: 'a `<template>` component without a size, filling the CSS box of its host',
    probes: [
      { t: 1, at: [170, 150], rgb: '#e4572e' },
      { t: 1, at: [500, 180], rgb: '#101820' },
    ],
  },
  {
    name: 'host-attr-sized',
    covers: "a component filling a host sized only by the host's `data-width`/`data-height`",
    probes: [
      { t: 1, at: [320, 180], rgb: '#2e86ab' },
      { t: 1, at: [470, 260], rgb: '#2e86ab' },
      { t: 1, at: [100, 50], rgb: '#0b0b0f' },
      { t: 1, at: [490, 285], rgb: '#0b0b0f' },
    ],
  },
  {
    name: 'component-grid',
    covers: 'one component mounted four times in a CSS grid, per-instance variables; `<html>` + stage element',
    probes: [
      { t: 1, at: [160, 90], rgb: '#ef476f' },
      { t: 1, at: [480, 90], rgb: '#06d6a0' },
      { t: 1, at: [160, 270], rgb: '#118ab2' },
      { t: 1, at: [480, 270], rgb: '#ffd166' },
      { t: 1, at: [320, 90], rgb: '#000000' },
    ],
  },
  {
    name: 'nested-components',
    covers: 'a sizeless scene component mounting a sizeless badge component, with its own start',
    probes: [
      { t: 0.2, at: [540, 100], rgb: '#1b998b' },
      { t: 1.5, at: [540, 100], rgb: '#f46036' },
      { t: 1.5, at: [100, 300], rgb: '#1b998b' },
    ],
  },
  {
    name: 'lower-third-component',
    covers: 'a lower-third component with variables, mounted at 0.5 s in a bottom band',
    probes: [
      { t: 0.3, at: [600, 330], rgb: '#222222' },
      { t: 2, at: [600, 340], rgb: '#ffbe0b' },
    ],
  },
  {
    name: 'timeline-length-title',
    covers: 'no `data-duration`: the length of the registered GSAP timeline (2.5 s)',
    length: { seconds: 2.5, source: 'timeline' },
    probes: [
      { t: 2, at: [300, 180], rgb: '#ff006e' },
      { t: 2, at: [560, 180], rgb: '#14213d' },
    ],
  },
  {
    name: 'animations-length',
    covers: 'no `data-duration` and no timeline: until its last finite CSS animation or Web Animation ends (2 s)',
    length: { seconds: 2, source: 'animations' },
    probes: [
      { t: 1, at: [200, 95], rgb: '#f2e9e4' },
      { t: 1, at: [300, 240], rgb: '#c9ada7' },
      { t: 1, at: [500, 240], rgb: '#22223b' },
    ],
  },
  {
    name: 'timeline-child-length',
    covers: "a sub-composition whose length is its own timeline's, and a clip that starts after it",
    probes: [
      { t: 0.5, at: [100, 100], rgb: '#8338ec' },
      { t: 1.5, at: [100, 100], rgb: '#3a86ff' },
    ],
  },
  {
    name: 'anime-register',
    covers: 'anime.js v4 from jsDelivr, registered with `hyperframesAnime.register`',
    probes: [
      { t: 1, at: [280, 180], rgb: '#ef233c' },
      { t: 1, at: [40, 180], rgb: '#2b2d42' },
    ],
  },
  {
    name: 'captions-words',
    covers: 'captions from a word-timed transcript variable, the active word highlighted',
    probes: [
      { t: 1.5, box: [40, 220, 560, 90], has: '#ffd400', tol: 40 },
      { t: 1.5, box: [40, 220, 560, 90], has: '#ffffff', tol: 30 },
    ],
  },
  {
    name: 'karaoke-gsap',
    covers: 'captions built by the composition from word times, lit by GSAP',
    probes: [
      { t: 1.3, box: [0, 140, 640, 80], has: '#ffba08', tol: 40 },
      { t: 1.3, box: [0, 140, 640, 80], has: '#555555', tol: 20 },
    ],
  },
  {
    name: 'bar-chart',
    covers: 'a bar chart from JSON data, bars staggered up from the baseline',
    probes: [
      { t: 1.8, at: [210, 80], rgb: '#4361ee' },
      { t: 1.8, at: [430, 300], rgb: '#4361ee' },
      { t: 1.8, at: [430, 200], rgb: '#f8f9fa' },
    ],
  },
  {
    name: 'line-chart-svg',
    covers: 'an SVG line chart drawn on with `stroke-dashoffset`',
    probes: [
      { t: 0.3, at: [530, 90], rgb: '#0d1b2a' },
      { t: 1.8, at: [530, 90], rgb: '#06d6a0' },
    ],
  },
  {
    name: 'donut-chart',
    covers: 'an SVG donut gauge (stroke-dasharray from `onUpdate`) and its counter',
    probes: [
      { t: 1.8, at: [440, 180], rgb: '#ff9f1c' },
      { t: 1.8, at: [235, 95], rgb: '#333333' },
    ],
  },
  {
    name: 'counter-progress',
    covers: 'a number counting up (`onUpdate` text) and a progress bar',
    probes: [
      { t: 1.8, at: [300, 260], rgb: '#2a9d8f' },
      { t: 1.8, at: [560, 260], rgb: '#e9ecef' },
      { t: 1.8, box: [40, 70, 560, 100], has: '#111111', tol: 40 },
    ],
  },
  {
    name: 'webgl-crossfade',
    covers: 'a WebGL shader transition (a fragment shader mixing two scenes), drawn in `onSeek`',
    probes: [
      { t: 0, at: [320, 180], rgb: '#f04570', tol: 30 },
      { t: 1.9, at: [320, 180], rgb: '#128ab3', tol: 30 },
    ],
  },
  {
    name: 'webgl-wipe',
    covers: 'a WebGL wipe between two textures with a feathered edge',
    probes: [
      { t: 1, at: [160, 150], rgb: '#00b4d8' },
      { t: 1, at: [480, 150], rgb: '#f72585' },
    ],
  },
  {
    name: 'canvas-particles',
    covers: 'canvas 2D drawn in `onSeek`, with seeded `Math.random`',
    probes: [
      { t: 1, at: [320, 330], rgb: '#f4d35e' },
      { t: 1, at: [100, 330], rgb: '#0b132b' },
    ],
  },
  {
    name: 'three-cube',
    covers: 'three.js r147 from jsDelivr, answered from the installed package (a devDependency of the corpus)',
    probes: [
      { t: 1, at: [320, 180], rgb: '#ff5400' },
      { t: 1, at: [20, 20], rgb: '#101010' },
    ],
  },
  {
    name: 'css-3d-flip',
    covers: 'a CSS 3D card flip (perspective, backface-visibility) by GSAP',
    probes: [
      { t: 0.2, at: [320, 180], rgb: '#118ab2' },
      { t: 1.8, at: [320, 180], rgb: '#ef476f' },
    ],
  },
  {
    name: 'overlay-lower-third',
    covers: 'a transparent lower third, rendered to webm with alpha',
    format: 'webm',
    probes: [
      { t: 1, at: [20, 20], alpha: [0, 5] },
      { t: 1, at: [420, 285], rgb: '#06d6a0', alpha: [250, 255] },
    ],
  },
  {
    name: 'overlay-badge',
    covers: 'a transparent corner badge, rendered to mov (ProRes 4444)',
    format: 'mov',
    probes: [
      { t: 0.8, at: [560, 80], rgb: '#ffd166', alpha: [250, 255] },
      { t: 0.8, at: [100, 300], alpha: [0, 5] },
    ],
  },
  {
    name: 'overlay-subtitles',
    covers: 'transparent subtitles on a half-opaque box, from a captions variable, to webm',
    format: 'webm',
    probes: [
      { t: 1, at: [320, 100], alpha: [0, 5] },
      { t: 1, at: [72, 300], alpha: [130, 175] },
    ],
  },
  {
    name: 'letters-stagger',
    covers: "letters falling in with a GSAP stagger (HyperFrames' gsap-letters style)",
    probes: [{ t: 1.5, box: [100, 140, 440, 80], has: '#f5f5f5', tol: 20 }],
  },
  {
    name: 'typewriter-textplugin',
    covers: "a typewriter with GSAP's TextPlugin (a second file of the gsap package from jsDelivr)",
    probes: [
      { t: 0.1, box: [300, 150, 150, 40], lacks: '#d4d4d4', tol: 20 },
      { t: 2, box: [300, 150, 150, 40], has: '#d4d4d4', tol: 20 },
    ],
  },
  {
    name: 'word-mask-reveal',
    covers: 'words rising out of `overflow: hidden` masks',
    probes: [
      { t: 0, box: [40, 180, 400, 84], lacks: '#283618', tol: 30 },
      { t: 1.5, box: [40, 80, 400, 84], has: '#283618', tol: 30 },
    ],
  },
  {
    name: 'marker-highlight',
    covers: 'a marker highlight swept behind a word (a CSS variable tweened by GSAP)',
    probes: [
      { t: 0.1, box: [200, 150, 320, 40], lacks: '#ffe600', tol: 30 },
      { t: 1.5, box: [200, 150, 320, 40], has: '#ffe600', tol: 30 },
    ],
  },
  {
    name: 'css-keyframes',
    covers: 'CSS `@keyframes` only, one of them infinite, no script',
    probes: [
      { t: 1, at: [320, 180], rgb: '#e9c46a' },
      { t: 1, at: [40, 180], rgb: '#264653' },
    ],
  },
  {
    name: 'waapi-animate',
    covers: 'the Web Animations API (`element.animate`)',
    probes: [
      { t: 1, at: [320, 180], rgb: '#e63946' },
      { t: 1, at: [320, 40], rgb: '#f1faee' },
    ],
  },
  {
    name: 'clip-sequence',
    covers: 'clips that start after each other by id and by id + offset, a gap between them',
    probes: [
      { t: 0.5, at: [320, 180], rgb: '#d62828' },
      { t: 1.5, at: [320, 180], rgb: '#2a9d8f' },
      { t: 2.2, at: [320, 180], rgb: '#000000' },
      { t: 2.8, at: [320, 180], rgb: '#1d3557' },
    ],
  },
  {
    name: 'iframe-raf-widget',
    covers: 'a `requestAnimationFrame` widget page in a plain `<iframe>` clip',
    probes: [
      { t: 1, at: [160, 180], rgb: '#80ed99' },
      { t: 1, at: [480, 180], rgb: '#333333' },
      { t: 1, at: [320, 50], rgb: '#111111' },
    ],
  },
  {
    name: 'variables-themed',
    covers: 'declared variables (colour, string, number) rendered with their defaults',
    probes: [
      { t: 1.5, at: [160, 300], rgb: '#7209b7' },
      { t: 1.5, box: [40, 140, 260, 80], has: '#ffffff', tol: 30 },
      { t: 1.5, box: [340, 100, 280, 120], has: '#111111', tol: 40 },
    ],
  },
  {
    name: 'image-kenburns',
    covers: 'a still image (SVG) with a Ken Burns push-in',
    probes: [
      { t: 1, at: [100, 60], rgb: '#8ecae6' },
      { t: 1, at: [320, 352], rgb: '#264653' },
    ],
  },
  {
    name: 'google-fonts-import',
    covers: 'Google Fonts through CSS `@import` with several families and `wght@400;800`, from installed packages',
    probes: [
      { t: 1, box: [40, 80, 560, 80], has: '#f8fafc', tol: 20 },
      { t: 1, box: [40, 200, 560, 40], has: '#38bdf8', tol: 30 },
    ],
  },
  {
    name: 'html-stage-split',
    covers: '`<html>` with the id and variables, a stage element with the size and length',
    probes: [
      { t: 1, at: [160, 180], rgb: '#fb5607' },
      { t: 1, at: [480, 180], rgb: '#000000' },
    ],
  },
  {
    name: 'background-canvas-root',
    covers: 'a sized background `<canvas data-composition-id>` before the real root',
    probes: [
      { t: 1, at: [500, 300], rgb: '#3a0ca3' },
      { t: 1, at: [100, 180], rgb: '#ffffff' },
    ],
  },
];
