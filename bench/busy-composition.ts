/** A busy frame: moving gradients, rotating cards, a ticking counter (nothing repeats between frames). */
export function busyComposition({
  width,
  height,
  seconds,
  fps,
  id,
}: {
  width: number;
  height: number;
  seconds: number;
  fps: number;
  id: string;
}): string {
  const cards = Array.from(
    { length: 12 },
    (_, i) => `<div class="card" style="left:${(i % 4) * 25 + 4}%;top:${Math.floor(i / 4) * 30 + 8}%;animation-delay:-${i * 0.37}s"></div>`,
  ).join('');
  return `<!doctype html>
<html data-composition-id="${id}" data-width="${width}" data-height="${height}" data-duration="${seconds}" data-fps="${fps}">
<head><style>
html,body{margin:0;width:${width}px;height:${height}px;overflow:hidden;font-family:sans-serif}
body{background:linear-gradient(120deg,#1d2b64,#f8cdda);animation:hue 7s linear infinite}
.card{position:absolute;width:18%;height:22%;border-radius:24px;background:rgba(255,255,255,.35);box-shadow:0 20px 60px rgba(0,0,0,.35);animation:spin 5s ease-in-out infinite}
#counter{position:absolute;right:4%;bottom:6%;font-size:${Math.round(height / 8)}px;color:#fff}
@keyframes spin{0%{transform:rotate(0) scale(1)}50%{transform:rotate(180deg) scale(1.2)}100%{transform:rotate(360deg) scale(1)}}
@keyframes hue{from{filter:hue-rotate(0)}to{filter:hue-rotate(360deg)}}
</style></head>
<body>${cards}<div id="counter"></div>
<script>window.__seekframe.onSeek((t) => { document.getElementById('counter').textContent = t.toFixed(2) + ' s'; });</script>
</body></html>
`;
}
