import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameRgb, probe, rgb, shareNear } from './support/media-check.js';
import { nodeModulesAbove } from './support/outside-folder.js';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy.js';
import { timed, userShell } from './support/user-shell.js';

const shell = await userShell();
const version = shell.context.packed.find((pkg) => pkg.name === 'seekframe')!.version;
const LOOPBACK_ONLY = fileURLToPath(new URL('./support/loopback-only.mjs', import.meta.url));

// The starter is 1280x720, 4 s; at 5 fps a render is 20 frames.
const FAST = ['--fps', '5', '--quality', 'draft', '--quiet'];

/**
 * Seekframe as a user gets it: from a registry, into a folder with no node_modules above it.
 * One flow, step by step: install the CLI, create a project, install its own dependencies,
 * lint, render (with nothing but loopback reachable), change a variable, render WebM.
 */
describe('seekframe from the registry: init, install, lint, render', () => {
  let work: string;
  let project: string;
  let proxy: RecordingProxy;

  beforeAll(async () => {
    work = await shell.folder('starter');
    proxy = await startRecordingProxy();
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('npm install seekframe in an empty folder that has no node_modules above it', async () => {
    expect(await nodeModulesAbove(work)).toEqual([]);
    await timed('starter: npm install seekframe', () => shell.run('npm', ['install', 'seekframe'], { cwd: work }));
    const installed = JSON.parse(await readFile(path.join(work, 'node_modules/seekframe/package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(version);
    // Nothing runs at install time (no download of a browser or ffmpeg): no package in the tree has an install script.
    const scripts = await shell.run(
      'npm',
      ['query', ':attr(scripts, [preinstall]), :attr(scripts, [install]), :attr(scripts, [postinstall])'],
      { cwd: work },
    );
    expect((JSON.parse(scripts.stdout) as Array<{ name: string }>).map((pkg) => pkg.name)).toEqual([]);
    const printed = await shell.run('npx', ['seekframe', '--version'], { cwd: work });
    expect(printed.stdout.trim()).toBe(version);
    const help = await timed('starter: npx seekframe --help', () => shell.run('npx', ['seekframe', '--help'], { cwd: work }));
    expect(help.stdout).toMatch(/^\s+init \[options\] <project-name>/m);
    expect(help.stdout).toMatch(/^\s+render \[options\]/m);
  });

  it('npx seekframe init my-video: a project whose own dependencies are seekframe and gsap', async () => {
    await shell.run('npx', ['seekframe', 'init', 'my-video'], { cwd: work });
    project = path.join(work, 'my-video');
    const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies).toEqual({ seekframe: `^${version}`, gsap: expect.stringMatching(/^\^3\./) });
    const html = await readFile(path.join(project, 'index.html'), 'utf8');
    // GSAP from the project's own node_modules: no CDN URL anywhere in the page.
    expect(html).not.toMatch(/https?:\/\//);
    expect([...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1])).toEqual(['node_modules/gsap/dist/gsap.min.js']);
  });

  it('npm install in the project installs them from the registry', async () => {
    await timed('starter: npm install in my-video', () => shell.run('npm', ['install'], { cwd: project }));
    expect(existsSync(path.join(project, 'node_modules/gsap/dist/gsap.min.js'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules/.bin/seekframe'))).toBe(true);
    // Exit code 0: no lint errors (run() rejects otherwise).
    await shell.run('npx', ['seekframe', 'lint', '.'], { cwd: project });
  });

  it('the proxy check works: a page fetching past loopback shows up in the recording proxy', async () => {
    // Without this, an empty proxy log below would prove nothing.
    const control = await shell.folder('starter/proxy-control');
    await writeFile(
      path.join(control, 'index.html'),
      '<!doctype html><html data-composition-id="c" data-width="64" data-height="36" data-duration="0.2" data-fps="5"><body style="background:#000">' +
        "<script>fetch('http://seekframe-proxy-check.invalid/probe').catch(() => {});</script></body></html>",
    );
    const failed = await shell
      .run('npx', ['seekframe', 'render', control, '--output', path.join(control, 'out.mp4'), ...FAST], {
        cwd: project,
        env: offlineEnv(proxy, path.join(control, 'node.log')),
      })
      .then(
        () => '',
        (error: Error) => error.message,
      );
    // The render refuses a page whose request failed, naming it; the request went to the proxy.
    expect(failed).toContain('Could not load http://seekframe-proxy-check.invalid/probe');
    expect(proxy.requests).toEqual(['GET http://seekframe-proxy-check.invalid/probe']);
  });

  it('npx seekframe render . gives an MP4 (ffprobe, pixels) with nothing reachable but loopback: GSAP comes from node_modules', async () => {
    proxy.requests.length = 0;
    const nodeLog = path.join(work, 'node-connections.log');
    await timed('starter: render mp4 (offline)', () =>
      shell.run('npx', ['seekframe', 'render', '.', '--output', 'renders/default.mp4', ...FAST], {
        cwd: project,
        env: offlineEnv(proxy, nodeLog),
      }),
    );
    expect(proxy.requests, 'Chromium asked the proxy for something beyond loopback').toEqual([]);
    expect(existsSync(nodeLog) ? await readFile(nodeLog, 'utf8') : '', 'a Node process connected beyond loopback').toBe('');
    const file = path.join(project, 'renders/default.mp4');
    const info = await probe(file);
    expect(info.streams[0]).toMatchObject({
      codec_type: 'video',
      codec_name: 'h264',
      width: 1280,
      height: 720,
      pix_fmt: 'yuv420p',
      nb_read_frames: '20',
    });
    expect(info.duration).toBeCloseTo(4, 1);
    // At 3 s the timeline has drawn everything: dark background, the accent (#ff5a36) in the
    // rule and the bars. Without GSAP the page throws and the frame is never this.
    const frame = await frameRgb(file, 3, 160, 90);
    expect(shareNear(frame, rgb('#0f1115'))).toBeGreaterThan(0.5);
    expect(shareNear(frame, rgb('#ff5a36'), 40)).toBeGreaterThan(0.01);
  });

  it('--variables changes the frame: light theme, another accent colour', async () => {
    await timed('starter: render mp4 with --variables', () =>
      shell.run(
        'npx',
        ['seekframe', 'render', '.', '--output', 'renders/light.mp4', '--variables', '{"theme":"light","accentColor":"#22aa88"}', ...FAST],
        { cwd: project },
      ),
    );
    const frame = await frameRgb(path.join(project, 'renders/light.mp4'), 3, 160, 90);
    expect(shareNear(frame, rgb('#f4f1ea'))).toBeGreaterThan(0.5);
    expect(shareNear(frame, rgb('#22aa88'), 40)).toBeGreaterThan(0.01);
    expect(shareNear(frame, rgb('#ff5a36'), 40)).toBeLessThan(0.002);
  });

  it('--format webm gives a VP9 WebM', async () => {
    await timed('starter: render webm', () =>
      shell.run('npx', ['seekframe', 'render', '.', '--format', 'webm', '--output', 'renders/default.webm', ...FAST], { cwd: project }),
    );
    const info = await probe(path.join(project, 'renders/default.webm'));
    expect(info.streams[0]).toMatchObject({ codec_type: 'video', codec_name: 'vp9', width: 1280, height: 720, nb_read_frames: '20' });
    await rm(path.join(project, 'renders'), { recursive: true, force: true });
  });

  it('npm create seekframe@latest my-video makes the same project as seekframe init', async () => {
    const elsewhere = await shell.folder('create');
    await timed('starter: npm create seekframe@latest', () =>
      shell.run('npm', ['create', 'seekframe@latest', 'my-video'], { cwd: elsewhere }),
    );
    for (const file of ['index.html', 'README.md', '.gitignore', 'package.json']) {
      expect(await readFile(path.join(elsewhere, 'my-video', file), 'utf8'), file).toBe(await readFile(path.join(project, file), 'utf8'));
    }
    await shell.run('npm', ['create', 'seekframe@latest', 'my-app', '--', '--template', 'modal-function'], { cwd: elsewhere });
    expect(existsSync(path.join(elsewhere, 'my-app/src/app.py'))).toBe(true);
  });
});

/** Chromium's proxy (all traffic but loopback) goes to the recording proxy; Node refuses anything but loopback. */
function offlineEnv(proxy: RecordingProxy, nodeLog: string): Record<string, string> {
  return {
    all_proxy: proxy.url,
    http_proxy: proxy.url,
    https_proxy: proxy.url,
    // Loopback bypasses the proxy anyway (Chromium and npm alike).
    no_proxy: '127.0.0.1,localhost,::1',
    NODE_OPTIONS: `--import=${pathToFileURL(LOOPBACK_ONLY).href}`,
    SEEKFRAME_LOOPBACK_LOG: nodeLog,
  };
}
