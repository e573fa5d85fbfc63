import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@seekframe/render-api/contract-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerTestsEnabled, engineEnv, ensureImage, IMAGES, REPO_ROOT } from '../../../core/cli/test/container-images.js';
import { frameIndexes, seamProject, tempDir, videoPackets } from '../../aws-lambda/test/support/media.js';

const run = promisify(execFile);
const COMPOSE = path.join(REPO_ROOT, 'infra/fleet/compose.yaml');
const PODMAN_COMPOSE = '/usr/bin/podman-compose';

/**
 * infra/fleet/compose.yaml as a user starts it, with Debian's podman-compose: Redis (built from
 * Debian's packages) and two worker containers of the render image; a render submitted from a
 * third container of the same image lands in the shared volume, frame-exact. An override puts
 * the services on the host's network (loopback only), as this machine allows no other.
 */
const enabled = containerTestsEnabled('the fleet compose file') && (existsSync(PODMAN_COMPOSE) || fail());
function fail(): false {
  if (process.env.CI) throw new Error('podman-compose is missing: scripts/setup.sh installs it as root');
  console.warn('\n*** SKIPPED the fleet compose file: podman-compose is missing (apt-get install podman-compose) ***\n');
  return false;
}

describe.runIf(enabled)('infra/fleet/compose.yaml under podman-compose', () => {
  let work: string;
  let project: Awaited<ReturnType<typeof seamProject>>;
  let env: NodeJS.ProcessEnv;
  let files: string[];
  const name = `seekframe-fleet-test-${process.pid}`;
  let podman: string;
  let output: string;
  const compose = (args: string[], timeout = 600_000) =>
    run(PODMAN_COMPOSE, ['--podman-path', podman, '-p', name, ...files.flatMap((file) => ['-f', file]), ...args], {
      env,
      timeout,
      maxBuffer: 64 << 20,
    });

  beforeAll(async () => {
    [work, project] = await Promise.all([tempDir('seekframe-fleet-compose-'), seamProject({ seconds: 3, fps: 10, audio: false })]);
    await ensureImage('fleet');
    await ensureImage('fleetRedis');
    const port = await freePort();
    // Debian 12's podman-compose (1.0.3) adds the project's network to every container, also to one
    // with network_mode: host, and podman refuses both; this podman drops the project network then.
    podman = path.join(work, 'podman');
    await writeFile(
      podman,
      [
        '#!/bin/bash',
        'host=0; prev=""',
        'for a in "$@"; do [ "$prev" = --network ] && [ "$a" = host ] && host=1; prev=$a; done',
        'args=(); skip=0',
        'for a in "$@"; do',
        '  if [ $skip = 1 ]; then skip=0; continue; fi',
        '  if [ $host = 1 ] && { [ "$a" = --net ] || [ "$a" = --network-alias ]; }; then skip=1; continue; fi',
        '  args+=("$a")',
        'done',
        'exec /usr/bin/podman "${args[@]}"',
        '',
      ].join('\n'),
      { mode: 0o755 },
    );
    const override = path.join(work, 'host-network.yaml');
    // The project and an output folder mounted into the worker service, so `run worker render …`
    // has them (podman-compose 1.0.3 ignores `run -v`).
    output = path.join(work, 'out');
    await mkdir(output);
    await run('chmod', ['0777', output]);
    await writeFile(
      override,
      `services:\n  redis:\n    network_mode: host\n  worker:\n    network_mode: host\n    volumes:\n      - ${project.dir}:/project:ro\n      - ${output}:/out\n`,
    );
    // The compose file and its Dockerfile side by side, as a user has them.
    await mkdir(path.join(work, 'fleet'));
    await copyFile(COMPOSE, path.join(work, 'fleet', 'compose.yaml'));
    await copyFile(path.join(REPO_ROOT, 'infra/fleet/redis.Dockerfile'), path.join(work, 'fleet', 'redis.Dockerfile'));
    files = [path.join(work, 'fleet', 'compose.yaml'), override];
    env = engineEnv({
      REDIS_PASSWORD: 'compose-secret-9d2e',
      REDIS_PORT: String(port),
      REDIS_BIND: '127.0.0.1',
      REDIS_URL: `redis://127.0.0.1:${port}`,
      SEEKFRAME_IMAGE: IMAGES.fleet,
      SEEKFRAME_REDIS_IMAGE: IMAGES.fleetRedis,
      SEEKFRAME_WORKERS: '2',
    });
    // The containers run as `node`: the project and the output folder must be theirs to read and write.
    await run('chmod', ['-R', 'a+rX', project.dir]);
    await compose(['up', '-d', '--no-build']);
    const deadline = Date.now() + 180_000;
    for (;;) {
      const { stdout } = await compose(['logs', 'worker']);
      if ((stdout.match(/^.*worker \S+ on redis:/gm) ?? []).length >= 2) break;
      if (Date.now() > deadline) throw new Error(`the worker containers did not start:\n${stdout}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }, 1_800_000);
  afterAll(async () => {
    if (files) await compose(['down', '-v', '-t', '5']).catch(() => undefined);
    await project?.cleanup();
    if (work) await rm(work, { recursive: true, force: true });
  }, 300_000);

  it('two workers take the chunks of a render submitted from a container of the same image; the video is frame-exact', async () => {
    const { stdout } = await compose([
      'run',
      '--rm',
      'worker',
      'render',
      '/project',
      '--queue',
      env.REDIS_URL!,
      '--store',
      '/renders',
      '--chunk-frames',
      '10',
      '-o',
      '/out/fleet.mp4',
      '--json',
    ]);
    // podman-compose runs it on a terminal (colours, a bar): --json gives one event per line to read.
    const events = stdout
      .split(/\r?\n/)
      .map((line) => line.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').trim())
      .flatMap((line) => {
        try {
          const event = JSON.parse(line) as { type?: string; worker?: string; frames?: number; chunks?: number; output?: string };
          return typeof event?.type === 'string' ? [event] : [];
        } catch {
          return []; // podman-compose's own lines
        }
      });
    expect(events.at(-1)).toMatchObject({ type: 'complete', output: '/out/fleet.mp4', frames: 30, chunks: 3 });
    const file = path.join(output, 'fleet.mp4');
    expect(await frameIndexes(file)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect((await videoPackets(file)).flatMap((p, i) => (p.key ? [i] : []))).toEqual([0, 10, 20]);
    // Both worker containers took part: the submitter names the worker of each chunk.
    const workers = new Set(events.filter((e) => e.type === 'chunk-done').map((e) => e.worker));
    expect(workers.size).toBe(2);
  }, 900_000);
});
