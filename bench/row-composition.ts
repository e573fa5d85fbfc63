/**
 * The 160x90, 1 s composition a batch row renders in bench/batch.ts, and a 30-frame server render
 * in bench/server-render.ts: one page, so their fixed costs compare.
 */
export const ROW_COMPOSITION = `<!doctype html>
<html data-composition-id="batch-tiny" data-width="160" data-height="90" data-duration="1" data-fps="30"
  data-composition-variables='[{"id":"title","type":"string","label":"Title","default":"Row"}]'>
<head><meta charset="utf-8"><style>
  html, body { margin: 0; width: 160px; height: 90px; overflow: hidden; background: #101820; }
  h1 { margin: 0; padding: 30px 10px; color: #fff; font: 700 20px sans-serif; animation: slide 1s linear both; }
  @keyframes slide { from { transform: translateX(-40px); } to { transform: translateX(40px); } }
</style></head>
<body><h1 id="t">Row</h1>
<script>document.getElementById('t').textContent = window.__seekframe.getVariables().title;</script>
</body></html>
`;
