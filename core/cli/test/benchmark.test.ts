import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoWorkerCount, loadSavedBenchmark, savedBenchmarkSchema } from '@seekframe/engine';
import { runCli } from './run-cli.js';

let dir: string;
let cacheDir: string;

// 160x90, 1 s at 10 fps; a box moves so every frame differs.
const html = `<!doctype html>
<html data-composition-id="bench" data-width="160" data-height="90" data-duration="1" data-fps="10">
<head><style>html,body{margin:0;width:160px;height:90px;background:#123}
#b{position:absolute;top:20px;width:40px;height:40px;background:#fc3;animation:m 1s linear both}
@keyframes m{from{left:0}to{left:120px}}</style></head>
<body><div id="b"></div></body>
</html>
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-benchmark-'));
  cacheDir = path.join(dir, 'cache');
  await mkdir(path.join(dir, 'promo'));
  await writeFile(path.join(dir, 'promo', 'index.html'), html);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('seekframe benchmark', () => {
  it('renders every setting, compares each with the reference and saves the fastest match', async () => {
    const env = { PATH: process.env.PATH, HOME: os.homedir(), SEEKFRAME_CACHE_DIR: cacheDir };
    const result = await runCli(['benchmark', 'promo', '--frames', '3', '--quality', 'draft', '--json'], { cwd: dir, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    const labels = report.rows.map((row: { label: string }) => row.label);
    expect(labels[0]).toBe('reference');
    // The reference is the render's own default capture: canvas with this repository's browser
    // (raw pixels, so the JPEG settings are not tried), the screenshot path's JPEG settings otherwise.
    const mode = report.captureNote.split(':')[0];
    expect(['canvas', 'beginframe', 'screenshot']).toContain(mode);
    const jpegSettings = ['frames png', 'jpeg 80', 'jpeg 70'];
    expect(labels).toEqual(
      expect.arrayContaining([
        'workers 2',
        `workers ${Math.min(4, Math.max(2, os.availableParallelism()))} unpinned`,
        `x264 threads ${os.availableParallelism()}`,
        ...(mode === 'canvas' ? ['capture screenshot'] : jpegSettings),
      ]),
    );
    if (mode === 'canvas') for (const label of jpegSettings) expect(labels).not.toContain(label);
    for (const row of report.rows) {
      expect(row.frames).toBe(3);
      expect(row.fps).toBeGreaterThan(0);
      expect(row.captureCpuPerFrame).toBeGreaterThan(0);
      expect(row.encodeCpuPerFrame).toBeGreaterThan(0);
      expect(row.idleFraction).toBeGreaterThanOrEqual(0);
      expect(row.idleFraction).toBeLessThanOrEqual(1);
      expect(row.othersFraction).toBeGreaterThanOrEqual(0);
      expect(row.outputBytes).toBeGreaterThan(0);
    }
    // The reference is compared with nothing (JSON turns its Infinity dB into null).
    expect(report.rows[0].psnr).toBeNull();
    expect(report.rows[0].settings.captureMode).toBe(report.captureNote.split(':')[0]);
    expect(report.rows[0].matches).toBe(true);
    const recommended = report.rows.find((row: { label: string }) => row.label === report.recommendation.label);
    expect(recommended.matches).toBe(true);
    expect(report.recommendation.fps).toBe(
      Math.max(...report.rows.filter((r: { matches: boolean }) => r.matches).map((r: { fps: number }) => r.fps)),
    );

    expect(report.savedTo).toBe(path.join(cacheDir, 'benchmark.json'));
    const saved = savedBenchmarkSchema.parse(JSON.parse(await readFile(report.savedTo, 'utf8')));
    expect(saved.recommendation).toMatchObject({
      captureMode: report.recommendation.settings.captureMode,
      workers: report.recommendation.settings.workers,
      pinWorkers: report.recommendation.settings.pinWorkers,
      frameFormat: report.recommendation.settings.frameFormat,
      jpegQuality: report.recommendation.settings.jpegQuality,
    });
    expect(loadSavedBenchmark(env)?.recommendation.workers).toBe(saved.recommendation.workers);
    expect(autoWorkerCount({ frameCount: 1000, recommended: saved.recommendation.workers })).toBe(saved.recommendation.workers);
  });

  it('rejects --frames outside 2-600 with exit 2 naming the flag', async () => {
    const result = await runCli(['benchmark', 'promo', '--frames', '1'], { cwd: dir, env: { PATH: process.env.PATH } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--frames must be 2-600');
  });
});
