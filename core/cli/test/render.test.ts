import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const run = promisify(execFile);
let dir: string;
let project: string;

// 160x90, 0.3 s at 10 fps: three frames; the title variable paints the background (and a small
// white square keeps it from being only a background, which the render reports as blank).
const html = `<!doctype html>
<html data-composition-id="cli" data-width="160" data-height="90" data-duration="0.3" data-fps="10"
  data-composition-variables='[{"id":"bg","label":"Background","type":"color","default":"#000000"}]'>
<head><style>html,body{margin:0;width:160px;height:90px}</style></head>
<body><script>document.body.style.background = window.__seekframe.getVariables().bg;</script>
<div style="position:absolute;right:0;bottom:0;width:8px;height:8px;background:#fff"></div></body>
</html>
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-render-'));
  project = path.join(dir, 'promo');
  await run('mkdir', ['-p', project]);
  await writeFile(path.join(project, 'index.html'), html);
  await writeFile(path.join(dir, 'vars.json'), '{"bg":"#ff0000"}');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const env = { PATH: process.env.PATH, HOME: os.homedir() };

describe('seekframe render', () => {
  it('renders to renders/<name>.mp4 by default and prints plain progress lines when not a TTY', async () => {
    const result = await runCli(['render', 'promo', '--variables-file', 'vars.json', '--workers', '1'], { cwd: dir, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('capture...');
    expect(result.stdout).toMatch(/capture 3\/3 frames \(100%/);
    expect(result.stdout).toMatch(/rendered renders\/promo\.mp4/);
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,nb_read_frames',
      '-of',
      'json',
      path.join(dir, 'renders', 'promo.mp4'),
    ]);
    expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '3' });
    // The variables file reached the page: the first frame is red.
    const { stdout } = await run(
      'ffmpeg',
      ['-v', 'error', '-i', path.join(dir, 'renders', 'promo.mp4'), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      { encoding: 'buffer' },
    );
    expect(stdout[0]).toBeGreaterThan(220);
    expect(stdout[1]).toBeLessThan(40);
  });

  it('--quiet prints only the output path; --format gif picks the extension', async () => {
    const result = await runCli(['render', 'promo', '--quiet', '--format', 'gif', '--output', 'out/promo.gif'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('out/promo.gif\n');
    expect(result.stderr).toBe('');
    // The file really is a 160x90 GIF of the three frames, not an MP4 under a .gif name.
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames',
      '-of',
      'json',
      path.join(dir, 'out', 'promo.gif'),
    ]);
    expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({ codec_name: 'gif', width: 160, height: 90, nb_read_frames: '3' });
  });

  it('--crf with --video-bitrate exits 1 naming both flags', async () => {
    const result = await runCli(['render', 'promo', '--crf', '20', '--video-bitrate', '5M', '--output', 'bad/x.mp4'], { cwd: dir, env });
    // invalid-options is a usage error since the error codes became one closed list: exit 2.
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--crf and --video-bitrate exclude each other/);
    expect(await readdir(path.join(dir, 'bad')).catch(() => 'absent')).toBe('absent');
  });

  it('--video-bitrate 99999999999G exits 2 with the option checks, before a browser or ffmpeg starts', async () => {
    const result = await runCli(['render', 'promo', '--video-bitrate', '99999999999G', '--output', 'huge/x.mp4'], { cwd: dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--video-bitrate must be 1k-2G bits per second/);
    expect(await readdir(path.join(dir, 'huge')).catch(() => 'absent')).toBe('absent');
  });

  it('--strict-variables with a bad variable exits 1 and writes nothing', async () => {
    const result = await runCli(['render', 'promo', '--strict-variables', '--variables', '{"bg":42}', '--output', 'strict/x.mp4'], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('variable "bg"');
    expect(await readdir(path.join(dir, 'strict')).catch(() => 'absent')).toBe('absent');
  });

  it('--strict makes a render that paints only its background fail with blank-render; without it, a warning', async () => {
    await writeFile(path.join(project, 'blank.html'), html.replace(/<div style="position:absolute;right:0[^>]*><\/div>/, ''));
    const warned = await runCli(['render', 'promo/blank.html', '--quiet', '--workers', '1', '--output', 'blank/warned.mp4'], {
      cwd: dir,
      env,
    });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toMatch(/blank-render|painted nothing but its background/);
    const strict = await runCli(['render', 'promo/blank.html', '--strict', '--json', '--workers', '1', '--output', 'blank/strict.mp4'], {
      cwd: dir,
      env,
    });
    expect(strict.code).toBe(1);
    const last = JSON.parse(strict.stdout.trim().split('\n').at(-1) as string) as { type: string; error: { code: string } };
    expect(last).toMatchObject({ type: 'error', error: { code: 'blank-render' } });
    expect(await readdir(path.join(dir, 'blank'))).toEqual(['warned.mp4']);
  });

  it('without --strict-variables a bad variable is a warning on stderr', async () => {
    const result = await runCli(['render', 'promo', '--quiet', '--variables', '{"nope":1}', '--output', 'warn/x.mp4'], { cwd: dir, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning .*"nope" is not declared/);
    expect(result.stdout).toBe('warn/x.mp4\n');
    // The render still happened, with the undeclared variable ignored: the default black background.
    const { stdout } = await run(
      'ffmpeg',
      ['-v', 'error', '-i', path.join(dir, 'warn', 'x.mp4'), '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
      { encoding: 'buffer' },
    );
    expect(stdout.length).toBe(160 * 90 * 3);
    expect(Math.max(stdout[0]!, stdout[1]!, stdout[2]!)).toBeLessThan(30);
  });

  it('--json prints one event per line, ending with complete or error, and nothing else', async () => {
    const ok = await runCli(['render', 'promo', '--json', '--output', 'json/x.mp4'], { cwd: dir, env });
    expect(ok.code).toBe(0);
    const events = ok.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events[0]).toEqual({ type: 'stage', stage: 'lint' });
    expect(events.at(-1)).toMatchObject({ type: 'complete', output: path.join(dir, 'json', 'x.mp4') });
    const probe = await run('ffprobe', [
      '-v',
      'error',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,nb_read_frames',
      '-of',
      'json',
      path.join(dir, 'json', 'x.mp4'),
    ]);
    expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '3' });
    const failed = await runCli(['render', 'promo', '--json', '--strict-variables', '--variables', '{"x":1}'], { cwd: dir, env });
    expect(failed.code).toBe(1);
    const lines = failed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.at(-1)).toMatchObject({ type: 'error', error: { code: 'invalid-variables' } });
  });

  it('rejects malformed flag values naming the flag', async () => {
    expect((await runCli(['render', 'promo', '--fps', 'fast'], { cwd: dir, env })).stderr).toMatch(/--fps .*1 to 240/);
    expect((await runCli(['render', 'promo', '--crf', 'high'], { cwd: dir, env })).stderr).toMatch(/--crf must be a whole number/);
    expect((await runCli(['render', 'promo', '--variables', '[1]'], { cwd: dir, env })).stderr).toMatch(
      /--variables must be a JSON object/,
    );
    const both = await runCli(['render', 'promo', '--variables', '{}', '--variables-file', 'vars.json'], { cwd: dir, env });
    expect(both.code).toBe(2); // a usage error (invalid-options)
    expect(both.stderr).toMatch(/--variables and --variables-file exclude each other/);
  });

  it('--frames 1-2 renders those two frames; a malformed or too-late span exits 2 naming --frames and the frames there are', async () => {
    const span = await runCli(['render', 'promo', '--frames', '1-2', '--workers', '1', '-o', 'out/span.mp4', '--quiet'], { cwd: dir, env });
    expect(span.code).toBe(0);
    const probe = await run('ffprobe', [
      ...['-v', 'error', '-count_frames', '-show_entries', 'stream=nb_read_frames', '-of', 'json'],
      path.join(dir, 'out', 'span.mp4'),
    ]);
    expect(JSON.parse(probe.stdout).streams[0]).toMatchObject({ nb_read_frames: '2' });
    const malformed = await runCli(['render', 'promo', '--frames', '2-1'], { cwd: dir, env });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/--frames 2-1 ends before it starts; give first-last composition frames like 30-59/);
    const late = await runCli(['render', 'promo', '--frames', '2-3', '-o', 'out/late.mp4'], { cwd: dir, env });
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/frames \(--frames\) 2-3 is outside the composition: it has 3 frames at 10 fps, numbered 0-2/);
    expect(await readdir(path.join(dir, 'out'))).not.toContain('late.mp4');
  });

  it('prints lint findings as file:line:col and renders nothing', async () => {
    const broken = path.join(dir, 'broken');
    await run('mkdir', ['-p', broken]);
    await writeFile(path.join(broken, 'index.html'), '<!doctype html><html data-composition-id="b"><body></body></html>');
    const result = await runCli(['render', 'broken'], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken\/index\.html:\d+:\d+ error root\//);
    expect(await readdir(path.join(dir, 'renders')).then((names) => names.includes('broken.mp4'))).toBe(false);
  });
});
