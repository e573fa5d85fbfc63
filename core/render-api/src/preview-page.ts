/**
 * The preview page's HTML: a static shell. All behaviour is in `/preview/app.js` (a TypeScript
 * module, src/preview/app/, bundled with esbuild), which fetches `/api/composition`, sizes the
 * player, builds the variables form and drives `/api/render`.
 */
export function previewPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Seekframe preview</title>
<link rel="icon" href="data:,">
<style>
  body { font: 15px/1.4 system-ui, sans-serif; margin: 0; background: #111318; color: #e8e8ee; }
  main { max-width: 1100px; margin: 0 auto; padding: 24px; display: grid; gap: 20px; }
  #stage { width: 100%; }
  seekframe-player { display: block; width: 100%; background: #000; }
  form { display: grid; grid-template-columns: max-content 1fr; gap: 8px 14px; align-items: center; }
  input, select, button { font: inherit; }
  button { padding: 8px 18px; cursor: pointer; }
  #status { min-height: 1.4em; }
  progress { width: 100%; }
  .error { color: #ff7a7a; }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<main>
  <h1 id="title">Seekframe preview</h1>
  <div id="stage"></div>
  <form id="token-form" hidden>
    <label for="token">API token</label><input id="token" type="password" autocomplete="off">
  </form>
  <form id="variables"></form>
  <div><button id="render" type="button" disabled>Render</button></div>
  <progress id="progress" max="1" value="0" hidden></progress>
  <div id="status" role="status"></div>
  <a id="result" hidden></a>
</main>
<script type="module" src="/preview/seekframe-player.js"></script>
<script type="module" src="/preview/app.js"></script>
</body>
</html>
`;
}
