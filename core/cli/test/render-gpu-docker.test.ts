import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const run = promisify(execFile);
let dir: string;

const html = `<!doctype html>
<html data-composition-id="gpu" data-width="160" data-height="90" data-duration="0.2" data-fps="10">
<head><style>html,body{margin:0;width:160px;height:90px;background:#2040c0}</style></head>
<body></body>
</html>
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-gpu-'));
  await mkdir(path.join(dir, 'promo'));
  await writeFile(path.join(dir, 'promo', 'index.html'), html);
  await mkdir(path.join(dir, 'bin'));
  // Stands in for an installed docker CLI: the checks talk to the engine API and never run it.
  await writeFile(path.join(dir, 'bin', 'docker'), '#!/bin/sh\nexit 99\n');
  await chmod(path.join(dir, 'bin', 'docker'), 0o755);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const env = { PATH: process.env.PATH, HOME: os.homedir() };

describe('render --gpu on a machine without a GPU', () => {
  it('falls back to libx264 with a warning naming each backend, and writes a valid mp4', async () => {
    const result = await runCli(['render', 'promo', '--gpu', '--json', '--workers', '1', '--output', 'gpu/x.mp4'], { cwd: dir, env });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; code?: string; message?: string });
    const warning = events.find((e) => e.type === 'warning' && e.code === 'gpu/software-fallback');
    expect(warning?.message).toMatch(
      /^--gpu: no hardware H\.264 encoder works on this machine, encoding with libx264 instead \(h264_nvenc: .+; h264_vaapi: .+; h264_qsv: .+; h264_videotoolbox: not built into this ffmpeg\)\.$/,
    );
    expect(events.at(-1)).toMatchObject({ type: 'complete' });
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,profile,pix_fmt,nb_read_frames',
      '-of',
      'json',
      path.join(dir, 'gpu', 'x.mp4'),
    ]);
    expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', nb_read_frames: '2' });
  });

  it('without --json the warning goes to stderr', async () => {
    const result = await runCli(['render', 'promo', '--gpu', '--quiet', '--workers', '1', '--output', 'gpu/y.mp4'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/--gpu: no hardware H\.264 encoder works on this machine, encoding with libx264/);
  });
});

describe('render --hdr', () => {
  it('reaches the encoder: 10-bit HEVC tagged PQ/BT.2020', async () => {
    const result = await runCli(['render', 'promo', '--hdr', '--quiet', '--workers', '1', '--output', 'hdr/x.mp4'], { cwd: dir, env });
    expect(result.code).toBe(0);
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,pix_fmt,color_transfer,color_primaries,color_space',
      '-of',
      'json',
      path.join(dir, 'hdr', 'x.mp4'),
    ]);
    expect(JSON.parse(probe.stdout).streams[0]).toEqual({
      codec_name: 'hevc',
      pix_fmt: 'yuv420p10le',
      color_space: 'bt2020nc',
      color_transfer: 'smpte2084',
      color_primaries: 'bt2020',
    });
  });
});

describe('render --hdr / --sdr usage errors', () => {
  it.each([
    [['--hdr', '--sdr'], /--hdr and --sdr exclude each other/],
    [['--hdr', '--format', 'webm'], /--hdr applies to mp4 only \(10-bit HEVC\), not --format webm/],
    [['--hdr', '--output', 'x.gif'], /--hdr applies to mp4 only .*not --format gif/],
  ])('%j exits 2 naming the flags and writes nothing', async (flags, message) => {
    const result = await runCli(['render', 'promo', ...flags], { cwd: dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(await readdir(path.join(dir, 'renders')).catch(() => [])).toEqual([]);
  });
});

describe('render --docker without a usable Docker', () => {
  it('no docker on PATH: exit 1, install Docker', async () => {
    const result = await runCli(['render', 'promo', '--docker', '--output', 'docker/x.mp4'], {
      cwd: dir,
      env: { PATH: path.join(dir, 'promo'), HOME: os.homedir() },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--docker needs the docker command, and it is not on PATH\. Install Docker/);
  });

  it('an engine that is not running: exit 1, start Docker (no hang)', async () => {
    const server = createTcpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const result = await runCli(['render', 'promo', '--docker', '--json', '--output', 'docker/x.mp4'], {
      cwd: dir,
      env: { PATH: path.join(dir, 'bin'), HOME: os.homedir(), DOCKER_HOST: `tcp://127.0.0.1:${port}` },
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ type: 'error', error: { code: 'docker-unreachable' } });
    expect(result.stdout).toMatch(/connection refused\)\. Start Docker/);
  });

  it('--docker with --batch or --browser-gpu is a usage error', async () => {
    expect((await runCli(['render', 'promo', '--docker', '--batch', 'rows.json'], { cwd: dir, env })).code).toBe(2);
    const gpu = await runCli(['render', 'promo', '--docker', '--browser-gpu'], { cwd: dir, env });
    expect(gpu.code).toBe(2);
    expect(gpu.stderr).toMatch(/--docker renders with software Chromium/);
  });
});
