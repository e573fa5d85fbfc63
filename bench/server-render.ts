/**
 * The fixed cost of a producer-server render, with and without warm browsers, two ways:
 *
 * - `2 frames`: N renders of a 2-frame, 32x32 composition one after another through POST /render
 *   (sandboxed, as every server render): the wall time of each is almost all fixed cost (request,
 *   plan, project server, browser start or lease, page load, ffmpeg's whole life, publishing);
 * - `30 frames`: N renders of the 160x90, 1 s composition that bench/batch.ts renders, through
 *   POST /render/stream, with the fixed cost computed as bench/batch.ts does for a batch row:
 *
 *     fixed cost = render wall time - its frames / its own steady frame rate
 *
 *   where the steady rate is read from the stream's progress events between its first and last
 *   frame. This is the figure comparable with a batch row's: ffmpeg starting while the first
 *   frames are captured is not fixed cost here, as it is not in a batch row.
 *
 *   npx tsx bench/server-render.ts               # 10 renders of each, warm pool vs none
 *   npx tsx bench/server-render.ts --renders 20 --json
 *
 * The first render of each server is reported apart (a warm pool starts empty). Uses the built
 * packages (run `npx turbo run build` first). Nothing is asserted: it is a measurement.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProducerServer } from '@seekframe/producer';
import { ROW_COMPOSITION } from './row-composition.js';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const renders = Math.max(2, Number(arg('--renders') ?? 10));
const json = process.argv.includes('--json');
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const TINY = `<!doctype html>
<html data-composition-id="tiny" data-width="32" data-height="32" data-duration="0.2" data-fps="10">
<head><meta charset="utf-8"><style>html,body{margin:0;width:32px;height:32px;overflow:hidden;background:#123}</style></head>
<body><div style="width:32px;height:32px;background:#e33"></div></body></html>
`;
/** One POST /render: its wall time. */
async function renderTiny(url: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${url}/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectDir: 'tiny', workers: 1, quality: 'draft' }),
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
  return performance.now() - start;
}

/** One POST /render/stream: its wall time and its fixed cost (wall - frames / steady rate). */
async function renderRow(url: string): Promise<{ wallMs: number; fixedMs: number }> {
  const start = performance.now();
  const response = await fetch(`${url}/render/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ projectDir: 'row', workers: 1, quality: 'draft' }),
  });
  if (response.status !== 200 || !response.body) throw new Error(`HTTP ${response.status} ${await response.text()}`);
  const progress: Array<{ t: number; frames: number }> = [];
  let buffered = '';
  let final = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    const now = performance.now();
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const message = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const type = /^event: (.*)$/m.exec(message)?.[1];
      const data = JSON.parse(/^data: (.*)$/m.exec(message)?.[1] ?? 'null') as { stage?: string; framesRendered?: number } | null;
      if (type === 'progress' && data?.stage === 'capture' && data.framesRendered !== undefined)
        progress.push({ t: now, frames: data.framesRendered });
      if (type === 'complete' || type === 'error' || type === 'cancelled') final = type;
    }
  }
  const wallMs = performance.now() - start;
  if (final !== 'complete') throw new Error(`the render ended with ${final || 'no final event'}`);
  const first = progress[0];
  const last = progress.at(-1);
  const perFrame = first && last && last.frames > first.frames ? (last.t - first.t) / (last.frames - first.frames) : 0;
  return { wallMs, fixedMs: wallMs - (last?.frames ?? 0) * perFrame };
}

const median = (values: number[]): number => values.slice().sort((a, b) => a - b)[values.length >> 1]!;
const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

const root = mkdtempSync(join(tmpdir(), 'seekframe-server-bench-'));
for (const [name, html] of [
  ['tiny', TINY],
  ['row', ROW_COMPOSITION],
] as const) {
  mkdirSync(join(root, name));
  writeFileSync(join(root, name, 'index.html'), html);
}
const rows = [];
try {
  for (const warmBrowsers of [2, 0]) {
    const server = await createProducerServer({ port: 0, root, maxConcurrentRenders: 1, warmBrowsers, env: {} });
    try {
      const tiny: number[] = [];
      for (let i = 0; i < renders; i++) tiny.push(await renderTiny(server.url));
      const row: Array<{ wallMs: number; fixedMs: number }> = [];
      for (let i = 0; i < renders; i++) row.push(await renderRow(server.url));
      const laterTiny = tiny.slice(1);
      const laterRow = row.slice(1);
      rows.push({
        browsers: warmBrowsers > 0 ? 'warm' : 'none',
        renders,
        tiny: { firstMs: Math.round(tiny[0]!), meanMs: Math.round(mean(laterTiny)), medianMs: Math.round(median(laterTiny)) },
        row: {
          wallMedianMs: Math.round(median(laterRow.map((r) => r.wallMs))),
          fixedMeanMs: Math.round(mean(laterRow.map((r) => r.fixedMs))),
          fixedMedianMs: Math.round(median(laterRow.map((r) => r.fixedMs))),
        },
        pool: server.browserPool(),
        load: load(),
      });
    } finally {
      await server.close();
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
if (json) {
  for (const row of rows) console.log(JSON.stringify(row));
} else {
  console.log(
    '| browsers | renders | 2 frames: first render | 2 frames: later renders, wall (mean / median) | 30 frames: later renders, wall (median) | 30 frames: fixed cost (mean / median) | load |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.browsers} | ${r.renders} | ${s(r.tiny.firstMs)} | ${s(r.tiny.meanMs)} / ${s(r.tiny.medianMs)} | ${s(r.row.wallMedianMs)} | ${s(r.row.fixedMeanMs)} / ${s(r.row.fixedMedianMs)} | ${r.load} |`,
    );
  }
}
