/**
 * The fixed cost of a producer-server render, with and without warm browsers: N renders of a
 * 2-frame, 32x32 composition one after another through POST /render (sandboxed, as every server
 * render), so each render's wall time is almost all fixed cost (request, plan, project server,
 * browser start or lease, page load, ffmpeg, publishing the output).
 *
 *   npx tsx bench/server-render.ts               # 10 renders each, warm pool vs none
 *   npx tsx bench/server-render.ts --renders 20 --json
 *
 * The first render of each server is reported apart (a warm pool starts empty). Uses the built
 * packages (run `npx turbo run build` first). Nothing is asserted: it is a measurement.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProducerServer } from '@seekframe/producer';

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

const root = mkdtempSync(join(tmpdir(), 'seekframe-server-bench-'));
mkdirSync(join(root, 'tiny'));
writeFileSync(join(root, 'tiny', 'index.html'), TINY);
const rows = [];
try {
  for (const warmBrowsers of [2, 0]) {
    const server = await createProducerServer({ port: 0, root, maxConcurrentRenders: 1, warmBrowsers, env: {} });
    try {
      const times: number[] = [];
      for (let i = 0; i < renders; i++) {
        const start = performance.now();
        const response = await fetch(`${server.url}/render`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ projectDir: 'tiny', workers: 1, quality: 'draft' }) });
        if (response.status !== 200) throw new Error(`render ${i}: HTTP ${response.status} ${await response.text()}`);
        await response.arrayBuffer();
        times.push(performance.now() - start);
      }
      const rest = times.slice(1).sort((a, b) => a - b);
      rows.push({
        browsers: warmBrowsers > 0 ? 'warm' : 'none',
        renders,
        firstMs: Math.round(times[0]!),
        meanMs: Math.round(rest.reduce((a, b) => a + b, 0) / rest.length),
        medianMs: Math.round(rest[rest.length >> 1]!),
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
if (json) {
  for (const row of rows) console.log(JSON.stringify(row));
} else {
  console.log('| browsers | renders | first render | later renders (mean / median) | load |');
  console.log('|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.browsers} | ${r.renders} | ${(r.firstMs / 1000).toFixed(2)} s | ${(r.meanMs / 1000).toFixed(2)} s / ${(r.medianMs / 1000).toFixed(2)} s | ${r.load} |`);
}
