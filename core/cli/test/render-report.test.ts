import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RenderReportSchema } from '@seekframe/producer';
import { runCli } from './run-cli.js';

let dir: string;
const env = { PATH: process.env.PATH, HOME: os.homedir() };

const page = (script: string): string => `<!doctype html>
<html data-composition-id="main" data-width="160" data-height="90" data-duration="0.5" data-fps="10">
<head><style>html,body{margin:0;width:160px;height:90px;background:#123}</style></head>
<body><div id="box" style="position:absolute;left:10px;top:10px;width:30px;height:30px;background:#fc0"></div>
<script>${script}</script></body></html>
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-report-'));
  await mkdir(path.join(dir, 'ok'));
  await writeFile(
    path.join(dir, 'ok', 'index.html'),
    page("window.__seekframe.onSeek((t) => { document.getElementById('box').style.left = 10 + t * 100 + 'px'; });"),
  );
  await mkdir(path.join(dir, 'broken'));
  await writeFile(
    path.join(dir, 'broken', 'index.html'),
    page("window.__seekframe.onSeek((t) => { if (t > 0.2) throw new Error('boom at ' + t); });"),
  );
  await writeFile(path.join(dir, 'rows.json'), '[{}]');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('seekframe render --report', () => {
  it('writes the report to the file, and the last --json event carries the same report', async () => {
    const result = await runCli(['render', 'ok', '--json', '--workers', '1', '--report', 'reports/ok.json', '--output', 'out/ok.mp4'], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; report?: unknown });
    const complete = events.at(-1)!;
    expect(complete.type).toBe('complete');
    const written = RenderReportSchema.parse(JSON.parse(await readFile(path.join(dir, 'reports', 'ok.json'), 'utf8')));
    expect(written).toEqual(complete.report);
    expect(written).toMatchObject({ status: 'completed', frames: { total: 5, captured: 5 }, workers: { value: 1, requested: '1' } });
    expect(written.stages.map((s) => s.stage)).toEqual(['lint', 'load', 'browser', 'page', 'media', 'audio', 'capture', 'encode']);
    expect(await readdir(path.join(dir, 'reports'))).toEqual(['ok.json']);
  });

  it('writes the stages it reached when the render fails', async () => {
    const result = await runCli(
      ['render', 'broken', '--quiet', '--workers', '1', '--report', 'broken.json', '--output', 'out/broken.mp4'],
      { cwd: dir, env },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('boom at');
    const written = RenderReportSchema.parse(JSON.parse(await readFile(path.join(dir, 'broken.json'), 'utf8')));
    expect(written.status).toBe('failed');
    expect(written.frames).toBeNull();
    expect(written.stages.map((s) => s.stage)).toContain('capture');
  });

  it('refuses --report with --batch (exit 2)', async () => {
    const result = await runCli(['render', 'ok', '--batch', 'rows.json', '--report', 'r.json'], { cwd: dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--report writes the report of one local render; it does not take --batch');
  });
});
