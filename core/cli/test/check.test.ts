import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { CheckReportSchema } from '@seekframe/producer';
import { runCli } from './run-cli.js';

let dir: string;
const env = { PATH: process.env.PATH, HOME: os.homedir() };

const page = (body: string): string => `<!doctype html>
<html data-composition-id="main" data-width="160" data-height="90" data-duration="1" data-fps="10">
<head><style>html,body{margin:0;width:160px;height:90px;background:#000}</style>
<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script></head>
<body><div id="box" style="position:absolute;left:10px;top:10px;width:30px;height:30px;background:#fc0"></div>
<script>${body}</script></body></html>
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-check-'));
  for (const [name, script] of [
    ['good', "const tl = gsap.timeline({ paused: true }); tl.to('#box', { x: 100, duration: 1 }); window.__timelines = { main: tl };"],
    ['forgot', "const tl = gsap.timeline({ paused: true }); tl.to('#box', { x: 100, duration: 1 });"],
  ]) {
    await mkdir(path.join(dir, name!));
    await writeFile(path.join(dir, name!, 'index.html'), page(script!));
  }
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('seekframe check', () => {
  it('prints each finding with its element, time and fix, and exits 1 on an error', async () => {
    const result = await runCli(['check', 'forgot'], { cwd: dir, env });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('error   motion/gsap-unregistered  #box  0.00-1.00 s');
    expect(lines[1]).toMatch(/^ {8}A GSAP timeline that is not in window.__timelines animates <div#box> \(x\)/);
    expect(lines[2]).toMatch(/^ {8}fix: Create it paused and register it/);
    expect(result.stdout).toContain(
      'lint passed · page passed · motion failed · layout passed · contrast passed · audio skipped (no audible clip) · alpha skipped (mp4 has no alpha channel)',
    );
    expect(result.stdout).toMatch(/✗ forgot\/index.html \(mp4\): 1 error, 0 warnings; \d+ frames sampled in [\d.]+ s/);
  });

  it('--json prints the report document only, and exits 0 when clean', async () => {
    const result = await runCli(['check', 'good', '--json', '--samples', '8'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const report = CheckReportSchema.parse(JSON.parse(result.stdout));
    expect(report).toMatchObject({ ok: true, entry: 'good/index.html', findings: [] });
    expect(report.sampledTimes.length).toBeLessThanOrEqual(8);
  });

  it('--snapshot writes the contact sheet: the sampled frames, the finding outlined and named', async () => {
    const result = await runCli(['check', 'forgot', '--samples', '6', '--snapshot', 'sheet', '--json'], { cwd: dir, env });
    expect(result.code).toBe(1);
    const report = CheckReportSchema.parse(JSON.parse(result.stdout));
    expect(report.snapshot).toBe(path.join('sheet', 'contact-sheet.png'));
    const sheet = path.join(dir, 'sheet', 'contact-sheet.png');
    const png = await readFile(sheet);
    // IHDR: three 480 px tiles in a row (the 160x90 frame scaled up) with their margins; the labels below.
    expect(png.readUInt32BE(16)).toBe(3 * 480 + 4 * 12);
    expect(png.readUInt32BE(20)).toBeGreaterThan(270);
    // The finding's box (#box at 10,10 in the frame, x3 on the tile) is outlined in the error colour.
    const pixel = execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      sheet,
      '-vf',
      `crop=1:1:${12 + 30 + 1}:${12 + 45}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ]);
    expect([...pixel]).toEqual([0xe5, 0x32, 0x2d]);
  });

  it('usage errors exit 2: a bad --samples or --loudness-target, a folder with no composition', async () => {
    const samples = await runCli(['check', 'good', '--samples', '2'], { cwd: dir, env });
    expect(samples.code).toBe(2);
    expect(samples.stderr).toContain('--samples must be a whole number from 4 to 500, got "2"');
    const loudness = await runCli(['check', 'good', '--loudness-target', 'loud'], { cwd: dir, env });
    expect(loudness.code).toBe(2);
    expect(loudness.stderr).toContain('--loudness-target must be a number of LUFS from -40 to -5');
    const missing = await runCli(['check', 'nowhere', '--json'], { cwd: dir, env });
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ type: 'error', error: { code: 'invalid-argument' } });
  });

  it('exits 3 when the check cannot run here (no browser), with the error as JSON', async () => {
    const result = await runCli(['check', 'good', '--json'], {
      cwd: dir,
      env: { ...env, SEEKFRAME_BROWSER: path.join(dir, 'no-such-browser') },
    });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ type: 'error', error: { code: 'browser-not-found' } });
  });
});
