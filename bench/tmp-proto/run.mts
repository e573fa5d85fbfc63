import { renderComposition } from '@seekframe/producer';
const mode = process.argv[2] as 'screenshot' | 'beginframe' | 'auto' ?? 'auto';
const r = await renderComposition({ projectDir: '/tmp/checks-proto/heavy', output: '/tmp/checks-proto/out.mp4', quality: 'draft', workers: 1, captureMode: mode });
console.log(JSON.stringify({ slowAll: r.report.slowestFrames, stages: r.report.stages, frames: r.report.frames, hot: r.report.hotspots, slow: r.report.slowestFrames.slice(0,3), w: r.report.workers, c: r.report.captureMode, d: r.durationMs }, null, 1));
console.log(JSON.stringify(Array.from((r.report as any).frames ? [] : [])));
