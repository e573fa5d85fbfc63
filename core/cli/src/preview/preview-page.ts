import { PREVIEW_ROUTE } from './preview-route.js';

/** The preview page shell; `browser/preview-app.ts` (served as app.js) fills it in the browser. */
export function previewPageHtml(title: string): string {
  const safe = title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${safe} · Seekframe preview</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px system-ui, sans-serif; background: #16181d; color: #e6e6e6; }
  header { display: flex; gap: 12px; align-items: center; padding: 8px 14px; background: #0e0f12; }
  header h1 { font-size: 15px; margin: 0; }
  #status { margin-left: auto; font-size: 12px; opacity: 0.8; }
  main { display: flex; gap: 16px; padding: 14px; align-items: flex-start; }
  #stage { flex: 1; min-width: 0; }
  #timeline { display: flex; gap: 8px; align-items: center; margin-top: 8px; }
  #scrub { flex: 1; }
  #time { font-variant-numeric: tabular-nums; min-width: 9em; text-align: right; }
  aside { width: 300px; flex: none; }
  aside h2 { font-size: 13px; text-transform: uppercase; letter-spacing: 0.05em; opacity: 0.7; margin: 14px 0 6px; }
  .field { display: grid; gap: 3px; margin-bottom: 10px; }
  .field .hint { font-size: 12px; opacity: 0.65; }
  .field input[type=text], .field input[type=number], .field select { width: 100%; padding: 4px; }
  .unit { margin-left: 4px; opacity: 0.7; }
  #lint { list-style: none; padding: 0; margin: 0; font-size: 12px; }
  #lint li { padding: 4px 6px; margin-bottom: 4px; border-left: 3px solid #888; background: #202329; }
  #lint li.error { border-color: #e5484d; }
  #lint li.warning { border-color: #f5a524; }
  #lint li.ok { border-color: #30a46c; }
  button { cursor: pointer; }
</style>
<script type="module" src="${PREVIEW_ROUTE}seekframe-player.js"></script>
<script type="module" src="${PREVIEW_ROUTE}app.js"></script>
</head><body data-reloads="0">
<header><h1>${safe}</h1><span id="status">connecting…</span></header>
<main>
  <section id="stage">
    <seekframe-player id="player"></seekframe-player>
    <div id="timeline">
      <button id="play" type="button">Play</button>
      <input id="scrub" type="range" min="0" max="0" step="any" value="0" aria-label="time">
      <span id="time">0.00 / 0.00 s</span>
      <label><input id="loop" type="checkbox"> loop</label>
    </div>
  </section>
  <aside>
    <h2>Variables</h2>
    <form id="variables" autocomplete="off"></form>
    <button id="reset" type="button">Reset to defaults</button>
    <h2>Lint</h2>
    <ul id="lint"></ul>
  </aside>
</main>
</body></html>`;
}
