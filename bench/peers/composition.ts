/**
 * The peer benchmark's composition, written once per tool: the same title, twenty turning boxes
 * and progress bar as bench/compositions/showcase-1080p, all CSS animations, so each tool seeks
 * the same keyframes. HyperFrames and Seekframe read the same HTML (a stage element with the
 * composition id, size and length, the form HyperFrames documents and Seekframe accepts); Remotion
 * gets a React component whose elements carry the same CSS, paused at the frame's time.
 */
export interface PeerComposition {
  width: number;
  height: number;
  fps: number;
  /** Seconds. */
  duration: number;
}

/** Everything visual, shared by the HTML and the React version (sizes in fractions of 1920x1080). */
function styles({ width, height, duration }: PeerComposition): string {
  const s = (px: number): string => `${Math.round((px * width) / 1920)}px`;
  return `
  html, body { margin: 0; width: ${width}px; height: ${height}px; overflow: hidden; background: #0d1117; }
  .stage { position: relative; width: ${width}px; height: ${height}px; overflow: hidden; background: #0d1117; }
  h1 { position: absolute; left: ${s(120)}; top: ${s(90)}; margin: 0; color: #e6edf3;
       font: 700 ${s(96)} "Noto Sans", sans-serif; letter-spacing: ${s(-2)};
       animation: title-in 1.2s cubic-bezier(0.2, 0.8, 0.2, 1) both; }
  .box { position: absolute; width: ${s(140)}; height: ${s(140)}; border-radius: ${s(28)};
         animation: turn ${duration * 0.8}s cubic-bezier(0.65, 0, 0.35, 1) both; }
  .bar { position: absolute; left: ${s(120)}; right: ${s(120)}; bottom: ${s(90)}; height: ${s(16)};
         border-radius: ${s(8)}; background: #21262d; overflow: hidden; }
  .bar > div { width: 100%; height: 100%; background: linear-gradient(90deg, #2f81f7, #a371f7);
               transform-origin: left center; animation: fill ${duration * 0.8}s linear both; }
  @keyframes title-in { from { opacity: 0; transform: translateX(${s(-160)}); } to { opacity: 1; transform: none; } }
  @keyframes turn { from { transform: rotate(0deg) scale(0.6); } to { transform: rotate(360deg) scale(1); } }
  @keyframes fill { from { transform: scaleX(0); } to { transform: scaleX(1); } }
`;
}

/** The twenty boxes: position and colour of box i. */
function boxes({ width }: PeerComposition): Array<{ left: string; top: string; background: string; delay: string }> {
  const s = (px: number): string => `${Math.round((px * width) / 1920)}px`;
  return Array.from({ length: 20 }, (_, i) => ({
    left: s(200 + (i % 5) * 320),
    top: s(300 + Math.floor(i / 5) * 170),
    background: `hsl(${i * 18}, 70%, 60%)`,
    delay: `${(-i * 0.2).toFixed(1)}s`,
  }));
}

/** index.html for HyperFrames and Seekframe. */
export function peerHtml(c: PeerComposition): string {
  const items = boxes(c)
    .map((b) => `<div class="box" style="left:${b.left};top:${b.top};background:${b.background};animation-delay:${b.delay}"></div>`)
    .join('\n    ');
  return `<!doctype html>
<html>
<head><meta charset="utf-8"><title>peers</title><style>${styles(c)}</style></head>
<body>
  <div class="stage" id="peers" data-composition-id="peers" data-width="${c.width}" data-height="${c.height}" data-start="0" data-duration="${c.duration}" data-fps="${c.fps}">
    <h1>Seekframe renders HTML to video</h1>
    ${items}
    <div class="bar"><div></div></div>
  </div>
</body>
</html>
`;
}

/** The Remotion project's files: the same elements and CSS, every animation paused at the frame's time. */
export function remotionFiles(c: PeerComposition): Record<string, string> {
  return {
    'src/index.ts': `import { registerRoot } from 'remotion';\nimport { Root } from './Root';\nregisterRoot(Root);\n`,
    'src/Root.tsx': `import React from 'react';
import { Composition } from 'remotion';
import { Peers } from './Peers';
export const Root: React.FC = () => (
  <Composition id="peers" component={Peers} durationInFrames={${Math.round(c.duration * c.fps)}} fps={${c.fps}} width={${c.width}} height={${c.height}} />
);
`,
    'src/Peers.tsx': `import React from 'react';
import { useCurrentFrame, useVideoConfig } from 'remotion';
const css = ${JSON.stringify(styles(c))};
const boxes = ${JSON.stringify(boxes(c))};
// A CSS animation paused with a negative delay shows its state at exactly that time: the frame's.
const at = (t: number, delay = 0): React.CSSProperties => ({ animationDelay: \`\${delay - t}s\`, animationPlayState: 'paused' });
export const Peers: React.FC = () => {
  const frame = useCurrentFrame();
  const { fps } = useVideoConfig();
  const t = frame / fps;
  return (
    <div className="stage">
      <style>{css}</style>
      <h1 style={at(t)}>Seekframe renders HTML to video</h1>
      {boxes.map((b, i) => (
        <div key={i} className="box" style={{ left: b.left, top: b.top, background: b.background, ...at(t, parseFloat(b.delay)) }} />
      ))}
      <div className="bar"><div style={at(t)} /></div>
    </div>
  );
};
`,
  };
}
