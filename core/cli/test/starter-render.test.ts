import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const run = promisify(execFile);

// The two-command promise of the README: `seekframe init` then `seekframe render` gives a video.
// At 5 fps the 4 s starter costs 20 frames.
describe('init, lint, render', () => {
  let parent: string;
  beforeAll(async () => {
    parent = await mkdtemp(path.join(os.tmpdir(), 'seekframe-starter-render-'));
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('renders the starter project to a 1280x720 H.264 MP4 of 4 s', { timeout: 180_000 }, async () => {
    const env = { PATH: process.env.PATH, HOME: os.homedir() };
    expect((await runCli(['init', 'first-video'], { cwd: parent, env })).code).toBe(0);
    const project = path.join(parent, 'first-video');
    expect((await runCli(['lint'], { cwd: project, env })).code).toBe(0);
    const render = await runCli(['render', '.', '--output', 'renders/out.mp4', '--fps', '5', '--quality', 'draft', '--quiet'], {
      cwd: project,
      env,
    });
    expect(render.stderr).toBe('');
    expect(render.code).toBe(0);
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=codec_name,width,height,pix_fmt,nb_frames:format=duration',
      '-of',
      'json',
      path.join(project, 'renders/out.mp4'),
    ]);
    const info = JSON.parse(probe.stdout) as { streams: Array<Record<string, unknown>>; format: { duration: string } };
    expect(info.streams[0]).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, pix_fmt: 'yuv420p', nb_frames: '20' });
    expect(Number(info.format.duration)).toBeCloseTo(4, 1);
  });
});
