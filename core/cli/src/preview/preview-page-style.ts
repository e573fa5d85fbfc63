/** The preview studio's stylesheet (inlined in the page: one request less, nothing to cache). */
export const PREVIEW_PAGE_STYLE = `
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; font: 13px system-ui, sans-serif; background: #16181d; color: #e6e6e6; display: flex; flex-direction: column; overflow: hidden; }
header { display: flex; gap: 12px; align-items: center; padding: 6px 14px; background: #0e0f12; flex: none; }
header h1 { font-size: 15px; margin: 0; }
#crumbs { font-size: 12px; display: flex; gap: 6px; }
#status { margin-left: auto; font-size: 12px; opacity: 0.8; }
main { flex: 1; min-height: 0; display: grid; grid-template-columns: minmax(240px, 1fr) 6px var(--aside-width, 340px); padding: 8px 0 0 8px; }
#stage { min-width: 0; min-height: 0; overflow: auto; padding-right: 6px; }
#player-box { height: var(--player-height, 48vh); min-height: 120px; display: flex; align-items: center; justify-content: center; background: #0b0c0f; overflow: hidden; }
#player-box.actual-size { overflow: auto; display: block; text-align: center; }
#picture { position: relative; display: inline-block; line-height: 0; }
#pick-layer { position: absolute; inset: 0; cursor: crosshair; }
body.checker #player::part(stage) { background: repeating-conic-gradient(#3a3d44 0% 25%, #2a2c31 0% 50%) 0 0 / 16px 16px; }
#player-box:fullscreen { height: 100vh; }
.splitter { background: #23262e; touch-action: none; }
.splitter:hover, .splitter:focus-visible { background: #3b9eff; }
.splitter.vertical { cursor: col-resize; }
.splitter.horizontal { height: 6px; cursor: row-resize; margin: 2px 0; }
aside { min-height: 0; overflow: auto; display: flex; flex-direction: column; gap: 8px; padding: 0 8px 8px; }
aside details { background: #1c1f26; border-radius: 4px; padding: 4px 10px 8px; }
aside summary { cursor: pointer; font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; opacity: 0.8; padding: 4px 0; }
button, select, input { font: inherit; color: inherit; background: #2a2e37; border: 1px solid #3a3f4b; border-radius: 3px; padding: 3px 6px; }
button { cursor: pointer; }
button:not(.tl-clip):hover { background: #343946; }
.tl-clip:hover { filter: brightness(1.2); }
:focus-visible { outline: 2px solid #3b9eff; outline-offset: 1px; }
.field { display: grid; gap: 3px; margin-bottom: 10px; }
.field .hint { font-size: 12px; opacity: 0.65; }
.field input[type=text], .field input[type=number], .field select { width: 100%; }
.unit { margin-left: 4px; opacity: 0.7; }
#transport { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
#transport .spacer { flex: 1; }
button[aria-pressed=true]:not(.tl-clip) { background: #2f4a6b; border-color: #3b9eff; }
#dropped.dropping { color: #f5a524; opacity: 1; }
#transport label { display: inline-flex; gap: 4px; align-items: center; }
#frame { width: 6em; }
#timecode { width: 8.5em; font-variant-numeric: tabular-nums; }
#time { font-variant-numeric: tabular-nums; opacity: 0.8; min-width: 8em; }
input[aria-invalid=true] { border-color: #e5484d; }
#timeline { background: #1c1f26; border-radius: 4px; user-select: none; -webkit-user-select: none; }
#edit-message { font-size: 12px; }
#edit-message.error { color: #ff8a8a; }
.tl-toolbar { display: flex; gap: 6px; align-items: center; padding: 4px 6px; font-size: 12px; }
.tl-toolbar .spacer { flex: 1; }
.tl-body { display: flex; }
.tl-labels { flex: none; width: 150px; border-right: 1px solid #2c313c; }
.tl-label { height: 28px; line-height: 28px; padding: 0 4px 0 6px; font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; display: flex; gap: 2px; align-items: center; border-bottom: 1px solid #23272f; }
.tl-label > span { flex: 1; overflow: hidden; text-overflow: ellipsis; opacity: 0.85; }
.tl-label button { padding: 0 4px; font-size: 10px; line-height: 16px; }
.tl-label.ruler-label { height: 24px; line-height: 24px; border-bottom: 1px solid #2c313c; }
.tl-label.lane-label, .tl-row.lane { height: 18px; line-height: 18px; font-size: 11px; }
.tl-label.lane-label { padding-left: 14px; opacity: 0.75; }
.tl-row.lane { background: #181a20; cursor: default; }
.tl-anim { position: absolute; top: 3px; height: 12px; min-width: 2px; border: 0; padding: 0; border-radius: 2px; background: #8a6dd8; }
.tl-anim[data-kind=css-animation], .tl-anim[data-kind=css-transition] { background: #2f9e8f; }
.tl-anim[data-kind=web-animation] { background: #c27a2c; }
.tl-anim[aria-pressed=true] { outline: 2px solid #3b9eff; }
.tl-marker { position: absolute; top: 0; bottom: 0; width: 0; border-left: 1px dashed #f5c542; pointer-events: none; }
.tl-marker span { position: absolute; top: 0; left: 2px; font-size: 9px; color: #f5c542; white-space: nowrap; }
.tl-range-strip { position: absolute; left: 0; right: 0; top: 0; height: 8px; cursor: ew-resize; background: rgba(255,255,255,0.04); z-index: 1; }
.tl-range { position: absolute; top: 0; height: 8px; background: rgba(59,158,255,0.55); pointer-events: none; z-index: 1; }
.tl-range-shade { position: absolute; top: 0; bottom: 0; background: rgba(0,0,0,0.35); pointer-events: none; z-index: 1; }
.tl-clip.dragging { opacity: 0.85; outline: 2px dashed #f5c542; z-index: 3; }
.tl-clip .edge { position: absolute; top: 0; bottom: 0; width: 5px; cursor: ew-resize; }
.tl-clip .edge.start { left: 0; }
.tl-clip .edge.end { right: 0; }
.tl-clip canvas { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; opacity: 0.7; }
.tl-clip > .name { position: relative; }
.tl-row.hidden-track .tl-clip { opacity: 0.35; }
.tl-snap { position: absolute; top: 0; bottom: 0; width: 0; border-left: 1px solid #f5c542; pointer-events: none; z-index: 4; }
.tl-scroll { flex: 1; overflow-x: auto; overflow-y: hidden; }
.tl-content { position: relative; min-width: 100%; }
.tl-ruler { position: relative; height: 24px; border-bottom: 1px solid #2c313c; cursor: col-resize; touch-action: none; user-select: none; }
.tl-tick { position: absolute; bottom: 0; width: 1px; height: 6px; background: #59606e; }
.tl-tick.major { height: 12px; background: #9aa3b5; }
.tl-tick span { position: absolute; left: 3px; bottom: 10px; font-size: 10px; color: #9aa3b5; white-space: nowrap; }
.tl-tick.major span { bottom: 11px; font-size: 11px; color: #d4d9e3; }
.tl-row { position: relative; height: 28px; border-bottom: 1px solid #23272f; cursor: pointer; }
.tl-clip { position: absolute; top: 3px; touch-action: none; height: 22px; min-width: 2px; padding: 0 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: left;
  font-size: 11px; border-radius: 3px; border: 1px solid rgba(255,255,255,0.25); background: #3d5a80; color: #fff; }
.tl-clip[data-kind=video] { background: #6a4c93; }
.tl-clip[data-kind=audio] { background: #2a7f62; }
.tl-clip[data-kind=composition] { background: #9c6b30; }
.tl-clip[aria-pressed=true] { outline: 2px solid #3b9eff; outline-offset: 0; z-index: 1; }
.tl-clip.open-ended { border-right-style: dashed; }
.tl-empty { margin: 6px 8px; }
.tl-playhead { position: absolute; top: 0; bottom: 0; width: 2px; margin-left: -1px; background: #ff5c5c; pointer-events: none; z-index: 2; }
#inspector dl { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; margin: 4px 0 8px; font-size: 12px; }
#inspector dt { opacity: 0.7; }
#inspector dd { margin: 0; overflow-wrap: anywhere; font-family: ui-monospace, monospace; }
#inspector h3 { font-size: 14px; margin: 4px 0; }
#inspector h4 { font-size: 11px; text-transform: uppercase; letter-spacing: 0.05em; opacity: 0.7; margin: 8px 0 2px; }
#inspector .empty, .muted { opacity: 0.65; font-size: 12px; }
#inspector code { font-size: 11px; overflow-wrap: anywhere; }
a { color: #6cb6ff; }
#lint, .findings { list-style: none; padding: 0; margin: 0; font-size: 12px; }
#lint li, .findings li { padding: 4px 6px; margin-bottom: 4px; border-left: 3px solid #888; background: #202329; }
#lint li.error, .findings li.error { border-color: #e5484d; }
#lint li.warning, .findings li.warning { border-color: #f5a524; }
#lint li.info, .findings li.info { border-color: #3e63dd; }
#lint li.ok { border-color: #30a46c; }
#render-form { display: grid; grid-template-columns: auto 1fr; gap: 6px 8px; align-items: center; }
#render-form pre { grid-column: 1 / -1; margin: 0; font-size: 11px; max-height: 6em; overflow: auto; background: #15171c; padding: 4px; }
#render-form button[type=submit] { grid-column: 1 / -1; }
#render-history { list-style: none; padding: 0; margin: 8px 0 0; display: grid; gap: 6px; }
#render-history li { background: #202329; padding: 6px; border-left: 3px solid #3b9eff; font-size: 12px; display: grid; gap: 4px; }
#render-history li[data-status=completed] { border-color: #30a46c; }
#render-history li[data-status=failed], #render-history li[data-status=cancelled] { border-color: #e5484d; }
#render-history progress { width: 100%; }
#render-history .path { font-family: ui-monospace, monospace; font-size: 11px; overflow-wrap: anywhere; user-select: all; }
.badge { display: inline-block; padding: 0 4px; border-radius: 3px; font-size: 10px; background: #f5a524; color: #111; margin-left: 4px; }
#render-output video, #render-output img { width: 100%; margin-top: 6px; background: #000; }
.kbd-help { font-size: 12px; }
.kbd-help kbd { background: #2a2e37; border: 1px solid #3a3f4b; border-radius: 3px; padding: 0 4px; font-size: 11px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
