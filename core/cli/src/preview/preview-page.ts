import { PREVIEW_PAGE_STYLE } from './preview-page-style.js';
import { PREVIEW_ROUTE } from './preview-route.js';

/**
 * The preview studio's page shell; `browser/preview-app.ts` (served as app.js) fills it in the
 * browser: player, transport, timeline, inspector, variables, render panel and lint findings.
 */
export function previewPageHtml(title: string): string {
  const safe = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${safe} · Seekframe preview</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>${PREVIEW_PAGE_STYLE}</style>
<script type="module" src="${PREVIEW_ROUTE}seekframe-player.js"></script>
<script type="module" src="${PREVIEW_ROUTE}app.js"></script>
</head><body data-reloads="0" class="checker">
<header><h1>${safe}</h1><nav id="crumbs" aria-label="Composition"></nav><span id="status" role="status">connecting…</span></header>
<main id="main">
  <section id="stage" aria-label="Player and timeline">
    <div id="player-box"><div id="picture"><seekframe-player id="player"></seekframe-player><div id="pick-layer" title="Click: select the clip under the pointer (Alt-click: the one below it)"></div></div></div>
    <div id="split-player" class="splitter horizontal" role="separator" aria-orientation="horizontal" aria-label="Resize the player" tabindex="0"></div>
    <div id="transport" role="toolbar" aria-label="Playback">
      <button id="first" type="button" aria-label="First frame (Home)" title="First frame (Home)">⏮</button>
      <button id="prev" type="button" aria-label="Previous frame (Left arrow)" title="Previous frame (←, Shift: 1 s)">◀</button>
      <button id="play" type="button" aria-label="Play (Space)" title="Play / pause (Space; J K L shuttle)">Play</button>
      <button id="next" type="button" aria-label="Next frame (Right arrow)" title="Next frame (→, Shift: 1 s)">▶</button>
      <button id="last" type="button" aria-label="Last frame (End)" title="Last frame (End)">⏭</button>
      <label>Frame <input id="frame" type="number" min="0" step="1" value="0" inputmode="numeric" aria-describedby="frame-count"></label>
      <span id="frame-count">/ 0</span>
      <label>Timecode <input id="timecode" type="text" value="00:00:00:00" spellcheck="false" autocomplete="off" title="HH:MM:SS:FF, or seconds like 1.5s"></label>
      <span id="time">0.00 / 0.00 s</span>
      <label title="Playback speed (J K L)">Speed <select id="speed"><option value="0.25">¼×</option><option value="0.5">½×</option><option value="1" selected>1×</option><option value="2">2×</option><option value="4">4×</option></select></label>
      <label><input id="loop" type="checkbox"> loop</label>
      <span id="dropped" class="muted" title="Frames the player could not paint in time during the last playback" aria-live="polite"></span>
      <span class="spacer"></span>
      <button id="view-fit" type="button" aria-pressed="true" title="Fit the picture in the window">Fit</button>
      <button id="view-100" type="button" aria-pressed="false" title="Show the picture at 100 % (its own pixels)">100%</button>
      <button id="view-checker" type="button" aria-pressed="true" title="Checkerboard behind transparent parts">▦</button>
      <button id="view-fullscreen" type="button" title="Full screen (F)">⛶</button>
    </div>
    <section id="timeline" aria-label="Timeline">
      <div class="tl-toolbar">
        <button id="zoom-out" type="button" aria-label="Zoom out (-)" title="Zoom out (-, Ctrl+wheel)">−</button>
        <span id="zoom-level" aria-live="polite">fit</span>
        <button id="zoom-in" type="button" aria-label="Zoom in (+)" title="Zoom in (+, Ctrl+wheel)">+</button>
        <button id="zoom-fit" type="button" title="Fit the whole composition (0)">Fit</button>
        <button id="undo" type="button" disabled title="Undo (Ctrl+Z)">Undo</button>
        <button id="redo" type="button" disabled title="Redo (Ctrl+Shift+Z)">Redo</button>
        <span id="range-label" class="muted" title="Work area: I sets in, O sets out, drag on the top of the ruler; X clears"></span>
        <span class="spacer"></span>
        <span id="edit-message" role="status"></span>
        <span id="fps-label" class="muted"></span>
      </div>
      <div class="tl-body">
        <div class="tl-labels" id="tl-labels"></div>
        <div class="tl-scroll" id="tl-scroll">
          <div class="tl-content" id="tl-content">
            <div class="tl-ruler" id="tl-ruler" role="slider" tabindex="0" aria-label="Time ruler: click or drag to seek; drag its top strip to set the work area" aria-valuemin="0" aria-valuemax="0" aria-valuenow="0"><div class="tl-range-strip" id="tl-range-strip"></div><div class="tl-range" id="tl-range" hidden></div></div>
            <div id="tl-rows" role="group" aria-label="Tracks"></div>
            <div class="tl-playhead" id="tl-playhead"></div>
          </div>
        </div>
      </div>
    </section>
    <details class="kbd-help"><summary>Keyboard shortcuts</summary>
      <p><kbd>Space</kbd> play / pause · <kbd>J</kbd> <kbd>K</kbd> <kbd>L</kbd> backwards / stop / forwards (again: faster) · <kbd>←</kbd> <kbd>→</kbd> one frame · <kbd>Shift</kbd>+<kbd>←</kbd> <kbd>→</kbd> one second ·
      <kbd>Home</kbd> first frame · <kbd>End</kbd> last frame · <kbd>Shift</kbd>+<kbd>↑</kbd> <kbd>↓</kbd> previous / next GSAP label ·
      <kbd>I</kbd> <kbd>O</kbd> work area in / out · <kbd>X</kbd> clear it · <kbd>+</kbd> <kbd>-</kbd> zoom · <kbd>0</kbd> fit · <kbd>F</kbd> full screen ·
      <kbd>Tab</kbd> to a block, <kbd>Enter</kbd> selects it · <kbd>[</kbd> <kbd>]</kbd> first / last frame of the selected block ·
      <kbd>Ctrl</kbd>+<kbd>Z</kbd> undo · <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Z</kbd> redo · drag a block to move it, its edges to trim it (<kbd>Alt</kbd>: no snapping) · <kbd>,</kbd> <kbd>.</kbd> move the selected block by a frame (<kbd>Shift</kbd>: a second) ·
      <kbd>Esc</kbd> clears the selection. Frame and timecode boxes: type, then <kbd>Enter</kbd>.</p>
    </details>
  </section>
  <div id="split-aside" class="splitter vertical" role="separator" aria-orientation="vertical" aria-label="Resize the side panel" tabindex="0"></div>
  <aside>
    <details open><summary>Inspector</summary><div id="inspector" aria-live="polite"></div></details>
    <details open><summary>Render</summary><div id="render-panel"></div></details>
    <details open><summary>Variables</summary>
      <form id="variables" autocomplete="off"></form>
      <button id="reset" type="button">Reset to defaults</button>
      <button id="save-defaults" type="button" title="Write these values into data-composition-variables as the declared defaults">Save as defaults</button>
      <p id="variables-message" class="muted" role="status"></p>
    </details>
    <details open><summary>Lint</summary><ul id="lint"></ul></details>
  </aside>
</main>
</body></html>`;
}
