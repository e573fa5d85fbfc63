import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoPsnr } from '@seekframe/engine';
import { buildDockerArgv } from '../src/docker/docker-argv.js';
import { frameIndexProject, readFrameIndex } from '../../producer/test/helpers/fixtures.js';
import { decodeFrames, probe } from '../../producer/test/helpers/media-tools.js';
import { tempProject } from '../../producer/test/helpers/temp-project.js';
import { containerTestsEnabled, engineEnv, ensureImage, podman, podmanDockerPath, REPO_ROOT } from './container-images.js';
import { runCli } from './run-cli.js';

const run = promisify(execFile);

/**
 * `seekframe render --docker` for real: the render image built with Debian's podman (on a base
 * made from Debian's packages: no registry here) and run through podman-docker's `docker` command,
 * the one a podman-only machine has. Skipped, loudly, where podman cannot run (not root, not
 * installed); on CI scripts/setup.sh installs it and these run.
 */
const enabled = containerTestsEnabled('render --docker tests');
const BUILD_TIMEOUT = 30 * 60_000;
const RENDER_TIMEOUT = 10 * 60_000;

interface JsonEvent {
  type: string;
  output?: string;
  framesRendered?: number;
  totalFrames?: number;
  versions?: { chromium: string; ffmpeg: string; fonts: Record<string, string> | null; seekframe: string };
}

const events = (stdout: string): JsonEvent[] =>
  stdout
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as JsonEvent);

describe.skipIf(!enabled)('seekframe render --docker (podman)', () => {
  let dir: string;
  let image: string;
  let env: NodeJS.ProcessEnv;
  let frames: Awaited<ReturnType<typeof tempProject>>;
  let labels: Record<string, string>;

  beforeAll(async () => {
    ({ image } = await ensureImage('render'));
    dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-docker-render-'));
    env = engineEnv({ PATH: await podmanDockerPath(dir), SEEKFRAME_DOCKER_IMAGE: image, HOME: os.homedir() });
    frames = await tempProject(frameIndexProject({ duration: 2, fps: 10 }));
    labels = JSON.parse(await podman(['image', 'inspect', '--format', '{{json .Config.Labels}}', image])) as Record<string, string>;
  }, BUILD_TIMEOUT);
  afterAll(async () => {
    await frames?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'renders the frame-index composition frame-exact; --json progress comes through from inside the container, the complete event names the host file and the versions that made it',
    async () => {
      const output = path.join(dir, 'frames', 'out.mp4');
      const result = await runCli(['render', frames.dir, '--docker', '--json', '--workers', '1', '--output', output], { cwd: dir, env });
      expect(result.code, result.stderr).toBe(0);
      const stream = events(result.stdout);
      expect(stream.filter((e) => e.type === 'stage').length).toBeGreaterThan(3);
      expect(stream.filter((e) => e.type === 'progress').at(-1)).toMatchObject({ framesRendered: 20, totalFrames: 20 });
      const complete = stream.at(-1)!;
      expect(complete).toMatchObject({ type: 'complete', output });
      // The versions inside the image are the ones its labels record (apt-install-pinned.sh).
      expect(labels['seekframe.version.chromium-headless-shell']).toContain(complete.versions!.chromium);
      expect(labels['seekframe.version.ffmpeg']).toContain(complete.versions!.ffmpeg.replace(/^n?/, ''));
      expect(complete.versions!.fonts).toEqual({
        'fonts-noto-core': labels['seekframe.version.fonts-noto-core'],
        'fonts-noto-color-emoji': labels['seekframe.version.fonts-noto-color-emoji'],
        fontconfig: labels['seekframe.version.fontconfig'],
      });

      const probed = await probe(output);
      expect(probed.streams[0]).toMatchObject({ codec_name: 'h264', width: 160, height: 90 });
      const decoded = await decodeFrames(output, 160, 90);
      expect(decoded.map((frame) => readFrameIndex(frame))).toEqual(Array.from({ length: 20 }, (_, i) => i));
    },
    RENDER_TIMEOUT,
  );

  it(
    'prints the human summary with host paths, progress on stderr',
    async () => {
      const output = path.join(dir, 'human', 'out.mp4');
      const result = await runCli(['render', frames.dir, '--docker', '--workers', '1', '--output', output], { cwd: dir, env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^rendered human\/out\.mp4 \(.+, 20 frames, .+ s\)\n$/m);
      expect(result.stdout).not.toContain('/output/');
    },
    RENDER_TIMEOUT,
  );

  it(
    'the bundled composition matches the local beginframe render when the Chromium versions are equal (PSNR >= 45 dB, or identical)',
    async (ctx) => {
      const project = path.join(REPO_ROOT, 'compositions/ui-3d-reveal');
      // Every 6th frame (5 fps) at full size: the comparison covers the whole timeline in 30 frames.
      const flags = ['--json', '--fps', '5', '--quality', 'draft', '--workers', '1'];
      const inDocker = await runCli(['render', project, '--docker', ...flags, '--output', path.join(dir, 'bundled', 'docker.mp4')], {
        cwd: dir,
        env,
      });
      expect(inDocker.code, inDocker.stderr).toBe(0);
      const local = await runCli(
        [
          'render',
          project,
          ...flags,
          '--capture-mode',
          'beginframe',
          '--no-browser-gpu',
          '--output',
          path.join(dir, 'bundled', 'local.mp4'),
        ],
        {
          cwd: dir,
          env: { ...process.env, SEEKFRAME_BROWSER: '/usr/bin/chromium-headless-shell' },
        },
      );
      expect(local.code, local.stderr).toBe(0);
      const dockerVersions = events(inDocker.stdout).at(-1)!.versions!;
      const localVersions = events(local.stdout).at(-1)!.versions!;
      // Pixels are compared only between equal versions: another Chromium rasterises differently.
      if (dockerVersions.chromium !== localVersions.chromium) {
        ctx.skip(
          `Chromium differs (image ${dockerVersions.chromium}, this machine ${localVersions.chromium}): not comparing pixels; apt-get upgrade chromium-headless-shell or rebuild the image`,
        );
      }
      const psnr = await videoPsnr(path.join(dir, 'bundled', 'local.mp4'), path.join(dir, 'bundled', 'docker.mp4'));
      console.log(`[images] bundled composition, --docker vs local beginframe (Chromium ${dockerVersions.chromium}): PSNR ${psnr} dB`);
      expect(psnr).toBeGreaterThanOrEqual(45);
    },
    RENDER_TIMEOUT,
  );

  it(
    'runs as the calling user: as root here the file is root-owned though the image runs as node by itself; uid 4321 (no passwd entry) gets a 4321-owned file',
    async () => {
      expect((await podman(['image', 'inspect', '--format', '{{.Config.User}}', image])).trim()).toBe('node');
      const mine = path.join(dir, 'owner', 'mine.mp4');
      const result = await runCli(['render', frames.dir, '--docker', '--quiet', '--workers', '1', '--output', mine], { cwd: dir, env });
      expect(result.code, result.stderr).toBe(0);
      expect(await stat(mine)).toMatchObject({ uid: process.getuid!(), gid: process.getgid!() });

      // The same command line the CLI builds, for another user (their project, their output folder):
      // the render works and the file is theirs.
      const other = path.join(dir, 'owner-4321');
      await mkdir(path.join(other, 'out'), { recursive: true });
      await run('cp', ['-r', frames.dir, path.join(other, 'project')]);
      await run('chown', ['-R', '4321:4321', other]);
      const argv = buildDockerArgv({
        image,
        projectRoot: path.join(other, 'project'),
        entry: 'index.html',
        output: path.join(other, 'out', 'x.mp4'),
        user: { uid: 4321, gid: 4321 },
        flags: { quiet: true, workers: '1' },
        env: {},
      });
      await run('docker', argv, { env, timeout: RENDER_TIMEOUT });
      expect(await stat(path.join(other, 'out', 'x.mp4'))).toMatchObject({ uid: 4321, gid: 4321 });
    },
    RENDER_TIMEOUT,
  );

  it(
    'replaces an existing output atomically: while it renders the file is the old one or the new one, never a part; no temp file is left',
    async () => {
      const output = path.join(dir, 'atomic', 'out.mp4');
      await mkdir(path.dirname(output));
      const old = Buffer.from('the previous render');
      await writeFile(output, old);
      const seen = new Set<string>();
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const bytes = await readFile(output).catch(() => null);
          seen.add(bytes === null ? 'missing' : bytes.equals(old) ? 'old' : `new:${bytes.length}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const result = await runCli(['render', frames.dir, '--docker', '--quiet', '--workers', '1', '--output', output], { cwd: dir, env });
      watching = false;
      await watcher;
      expect(result.code, result.stderr).toBe(0);
      const final = await readFile(output);
      seen.add(`new:${final.length}`);
      // Only whole states: the old file, then the finished one (its final size, not a partial write).
      expect([...seen].filter((state) => state !== 'old' && state !== `new:${final.length}`)).toEqual([]);
      expect(await readdir(path.dirname(output))).toEqual(['out.mp4']);
    },
    RENDER_TIMEOUT,
  );

  it(
    'a failing render in the container leaves the previous output untouched and exits non-zero with the error',
    async () => {
      const broken = await tempProject({
        'index.html':
          '<!doctype html><html data-composition-id="x" data-width="64" data-height="64" data-duration="1"><body><script>throw new Error("boom in page")</script></body></html>',
      });
      try {
        const output = path.join(dir, 'failing', 'out.mp4');
        await mkdir(path.dirname(output));
        await writeFile(output, 'keep me');
        const result = await runCli(['render', broken.dir, '--docker', '--json', '--workers', '1', '--output', output], { cwd: dir, env });
        expect(result.code).not.toBe(0);
        expect(events(result.stdout).at(-1)).toMatchObject({ type: 'error' });
        expect(await readFile(output, 'utf8')).toBe('keep me');
        expect(await readdir(path.dirname(output))).toEqual(['out.mp4']);
      } finally {
        await broken.cleanup();
      }
    },
    RENDER_TIMEOUT,
  );

  it(
    'a missing image or a missing docker command is one line naming the fix',
    async () => {
      const missing = await runCli(['render', frames.dir, '--docker', '--output', path.join(dir, 'none', 'x.mp4')], {
        cwd: dir,
        env: { ...env, SEEKFRAME_DOCKER_IMAGE: 'localhost/seekframe/none:missing' },
      });
      expect(missing.code).toBe(1);
      expect(missing.stderr.trim().split('\n')).toHaveLength(1);
      expect(missing.stderr).toMatch(
        /The Docker image localhost\/seekframe\/none:missing is not present on podman \(through the docker command\): build it .*bash infra\/docker\/build-image\.sh localhost\/seekframe\/none:missing/,
      );

      // A PATH with no docker at all (the CLI runs in this process: it needs no node on PATH).
      const emptyBin = path.join(dir, 'empty-bin');
      await mkdir(emptyBin, { recursive: true });
      const noDocker = await runCli(['render', frames.dir, '--docker', '--output', path.join(dir, 'none', 'x.mp4')], {
        cwd: dir,
        env: { ...env, PATH: emptyBin },
      });
      expect(noDocker.code).toBe(1);
      expect(noDocker.stderr.trim().split('\n')).toHaveLength(1);
      expect(noDocker.stderr).toMatch(/--docker needs the docker command, and it is not on PATH\. Install Docker/);
    },
    RENDER_TIMEOUT,
  );

  it(
    'doctor on the host names the image and the versions it holds; doctor inside the image reports the image record',
    async () => {
      const host = await runCli(['doctor', '--json'], { cwd: dir, env });
      const report = JSON.parse(host.stdout) as { checks: { id: string; status: string; summary: string }[] };
      const docker = report.checks.find((check) => check.id === 'docker')!;
      expect(docker.status).toBe('ok');
      expect(docker.summary).toContain(`image ${image} present`);
      expect(docker.summary).toContain(`Chromium ${labels['seekframe.version.chromium-headless-shell']}`);

      const inside = spawn('/usr/bin/docker', ['run', '--rm', '--network', 'none', image, 'doctor', '--json'], { env });
      let stdout = '';
      inside.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await new Promise((resolve) => inside.on('close', resolve));
      const image_ = (JSON.parse(stdout) as { checks: { id: string; status: string; summary: string }[] }).checks.find(
        (check) => check.id === 'image',
      )!;
      expect(image_).toMatchObject({ status: 'ok' });
      expect(image_.summary).toContain(labels['seekframe.version.chromium-headless-shell']);
      expect(image_.summary).toContain(labels['seekframe.version.fonts-noto-core']);
    },
    RENDER_TIMEOUT,
  );
});
