import { composition } from './temp-project.js';

/**
 * Frame i paints its own index as 8 binary blocks (bit 7 left ... bit 0 right) in the top
 * 60 px; the bottom 30 px stay empty (transparent in alpha formats). The index comes from the
 * seek time: Math.round(t * fps).
 */
export function frameIndexProject(opts: {
  duration: number;
  fps?: number;
  extraHead?: string;
  extraBody?: string;
}): Record<string, string> {
  const blocks = Array.from(
    { length: 8 },
    (_, b) => `<div class="bit" style="position:absolute;left:${b * 20}px;top:0;width:20px;height:60px;background:#000"></div>`,
  ).join('');
  return {
    'index.html': composition({
      duration: opts.duration,
      ...(opts.fps ? { fps: opts.fps } : {}),
      head: `<style>html,body{background:transparent !important}</style>${opts.extraHead ?? ''}`,
      body: `${blocks}${opts.extraBody ?? ''}
<script>
  const bits = [...document.querySelectorAll('.bit')];
  window.__seekframe.onSeek((t) => {
    const index = Math.round(t * window.__seekframe.fps);
    bits.forEach((el, b) => { el.style.background = (index >> (7 - b)) & 1 ? '#fff' : '#000'; });
  });
</script>`,
    }),
  };
}

/** Reads the index painted by `frameIndexProject` from a decoded RGB frame (width 160). */
export function readFrameIndex(frame: Buffer, width = 160): number {
  let index = 0;
  for (let b = 0; b < 8; b++) {
    const i = (30 * width + b * 20 + 10) * 3;
    const luma = (frame[i]! + frame[i + 1]! + frame[i + 2]!) / 3;
    index = (index << 1) | (luma > 128 ? 1 : 0);
  }
  return index;
}
