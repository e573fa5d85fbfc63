import { composition } from './temp-project.js';

/**
 * 2 s at 10 fps, 320x180: a small box moves the whole time; `#heavy` is on screen for frames
 * 10-17 only and stacks 14 blurred, blended, rotating full-frame layers under a backdrop-filter,
 * so each of its frames costs many times a plain one: ~70 ms of the browser's CPU against
 * 0-10 ms (measured at load average 45 on two cores; the wall time of a frame is what the load
 * makes it), ~0.55 s over the clip, well past the report's 250 ms for a slow clip. The layers move
 * every frame, so nothing can be cached.
 */
export function heavyClipProject(): Record<string, string> {
  const layer = '<div class="layer"></div>';
  return {
    'index.html': composition({
      width: 320,
      height: 180,
      duration: 2,
      fps: 10,
      head: `<style>
#box{position:absolute;left:0;top:100px;width:40px;height:40px;background:#fc0}
#heavy{position:absolute;inset:0}
#heavy .layer{position:absolute;inset:-40px;background:radial-gradient(circle at 30% 40%,#f0a,#0af 40%,#fa0 70%,#0fa);filter:blur(48px) saturate(3) contrast(1.4);mix-blend-mode:screen;opacity:.6}
#heavy .glass{position:absolute;inset:20px;backdrop-filter:blur(48px) hue-rotate(90deg);box-shadow:0 0 80px 40px rgba(255,255,255,.4)}
</style>`,
      body: `<div id="box"></div>
<div id="heavy" data-start="1" data-duration="0.8">${layer.repeat(14)}<div class="glass"></div></div>
<script>
  const box = document.getElementById('box');
  const layers = [...document.querySelectorAll('#heavy .layer')];
  window.__seekframe.onSeek((t) => {
    box.style.transform = 'translateX(' + t * 140 + 'px)';
    layers.forEach((el, i) => { el.style.transform = 'rotate(' + (t * 90 + i * 30) + 'deg) scale(' + (1 + i * 0.05) + ')'; });
  });
</script>`,
    }),
  };
}
