import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath } from '@seekframe/engine';
import type { DoctorReport } from '../src/doctor/check-result.js';
import { runCli } from './run-cli.js';

// Runs the real checks on this machine, which the set-up script provisions with Chromium
// (headless shell), ffmpeg and Noto fonts.
describe('seekframe doctor on this machine', () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(path.join(os.tmpdir(), 'seekframe-doctor-'));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it('--json finds Chromium with beginFrame and ffmpeg with every encoder', async () => {
    const run = await runCli(['doctor', '--json'], { cwd, env: { PATH: process.env.PATH, HOME: os.homedir() } });
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as DoctorReport;
    const byId = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    expect(Object.keys(byId).sort()).toEqual(
      [
        'begin-frame',
        'browser',
        'cpu-pinning',
        'disk',
        'docker',
        'emoji-font',
        'encoders',
        'ffmpeg',
        'font-packages',
        'fonts',
        'hardware-encoder',
        'memory',
        'node',
        'shm',
        'workers',
      ].sort(),
    );
    // No GPU and no Docker here: both optional, reported with what --gpu / --docker would do.
    expect(byId['hardware-encoder']).toMatchObject({ status: 'ok' });
    expect(byId['hardware-encoder']?.summary).toMatch(
      /^none works here; render --gpu falls back to libx264 \(h264_nvenc: .*h264_videotoolbox: not built into this ffmpeg\)$/,
    );
    // Some machines here have the docker CLI without an engine: either way Docker is optional.
    if (await findOnPath('docker', process.env.PATH ?? '')) {
      expect(byId.docker).toMatchObject({ status: 'warn', summary: 'engine not reachable' });
      expect(byId.docker?.fix).toMatch(/does not answer .*Start Docker/);
    } else {
      expect(byId.docker).toMatchObject({ status: 'ok', summary: 'not installed (only render --docker needs it)' });
    }
    for (const id of ['node', 'browser', 'begin-frame', 'ffmpeg', 'encoders', 'fonts', 'font-packages', 'cpu-pinning'])
      expect(byId[id]?.status, id).toBe('ok');
    expect(byId.browser?.details).toMatchObject({ supportsBeginFrame: true });
    expect(byId.disk?.summary).toContain(cwd);
    expect(report.status).not.toBe('fail');
    expect(run.code).toBe(0);
  });

  it('doctor <dir> lists every package the project loads from an npm CDN but has not installed, with one npm i for all', async () => {
    const project = path.join(cwd, 'project');
    await mkdir(path.join(project, 'scenes'), { recursive: true });
    await writeFile(
      path.join(project, 'index.html'),
      '<script src="https://cdn.jsdelivr.net/npm/made-up-tween@2.4.1/dist/a.js"></script><script src="https://unpkg.com/made-up-tween@2.4.1/dist/b.js"></script>' +
        '<script src="https://cdn.jsdelivr.net/npm/gsap@3.12.5/dist/gsap.min.js"></script>',
    );
    await writeFile(
      path.join(project, 'scenes', 'scene.js'),
      "import * as X from 'https://cdn.jsdelivr.net/npm/@made-up/shapes@1/index.js';",
    );
    const run = await runCli(['doctor', 'project', '--json'], { cwd, env: { PATH: process.env.PATH, HOME: os.homedir() } });
    const check = (JSON.parse(run.stdout) as DoctorReport).checks.find((c) => c.id === 'cdn-packages');
    // gsap is installed (Seekframe's own); the made-up packages are not, each listed once.
    expect(check).toMatchObject({ status: 'fail', fix: 'In project: npm i made-up-tween@2.4.1 @made-up/shapes@1' });
    expect(check?.details?.packages).toEqual([
      { package: 'made-up-tween', version: '2.4.1', install: 'npm i made-up-tween@2.4.1', files: [path.join('project', 'index.html')] },
      { package: '@made-up/shapes', version: '1', install: 'npm i @made-up/shapes@1', files: [path.join('project', 'scenes', 'scene.js')] },
    ]);
    expect(run.code).toBe(1);
  });

  it('fails with exit 1 and names the fix when ffmpeg cannot be found', async () => {
    const run = await runCli(['doctor'], { cwd, env: { PATH: process.env.PATH, SEEKFRAME_FFMPEG: path.join(cwd, 'no-ffmpeg') } });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^fail\s+ffmpeg\s+not found$/m);
    expect(run.stdout).toContain('SEEKFRAME_FFMPEG points to');
    expect(run.stdout).toContain('rendering cannot run until the failures are fixed.');
  });
});
