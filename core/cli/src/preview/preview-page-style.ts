/** The preview studio's stylesheet (inlined in the page: one request less, nothing to cache). */
export const PREVIEW_PAGE_STYLE = `
* { box-sizing: border-box; }
body { margin: 0; font: 13px system-ui, sans-serif; background: #16181d; color: #e6e6e6; }
header { display: flex; gap: 12px; align-items: center; padding: 6px 14px; background: #0e0f12; }
header h1 { font-size: 15px; margin: 0; }
#status { margin-left: auto; font-size: 12px; opacity: 0.8; }
main { display: flex; gap: 14px; padding: 12px; align-items: flex-start; }
#stage { flex: 1; min-width: 0; }
#player-box { display: flex; justify-content: center; background: #0b0c0f; }
aside { width: 340px; flex: none; display: grid; gap: 8px; }
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
#transport { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 8px 0; }
#transport label { display: inline-flex; gap: 4px; align-items: center; }
#frame { width: 6em; }
#timecode { width: 8.5em; font-variant-numeric: tabular-nums; }
#time { font-variant-numeric: tabular-nums; opacity: 0.8; min-width: 8em; }
input[aria-invalid=true] { border-color: #e5484d; }
#timeline { background: #1c1f26; border-radius: 4px; }
.tl-toolbar { display: flex; gap: 6px; align-items: center; padding: 4px 6px; font-size: 12px; }
.tl-toolbar .spacer { flex: 1; }
.tl-body { display: flex; }
.tl-labels { flex: none; width: 78px; border-right: 1px solid #2c313c; }
.tl-label { height: 28px; line-height: 28px; padding: 0 6px; font-size: 12px; opacity: 0.8; white-space: nowrap; }
.tl-label.ruler-label { height: 24px; line-height: 24px; }
.tl-scroll { flex: 1; overflow-x: auto; overflow-y: hidden; }
.tl-content { position: relative; min-width: 100%; }
.tl-ruler { position: relative; height: 24px; border-bottom: 1px solid #2c313c; cursor: col-resize; touch-action: none; }
.tl-tick { position: absolute; bottom: 0; width: 1px; height: 6px; background: #59606e; }
.tl-tick.major { height: 12px; background: #9aa3b5; }
.tl-tick span { position: absolute; left: 3px; bottom: 10px; font-size: 10px; color: #9aa3b5; white-space: nowrap; }
.tl-tick.major span { bottom: 11px; font-size: 11px; color: #d4d9e3; }
.tl-row { position: relative; height: 28px; border-bottom: 1px solid #23272f; cursor: pointer; }
.tl-clip { position: absolute; top: 3px; height: 22px; min-width: 2px; padding: 0 4px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; text-align: left;
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
