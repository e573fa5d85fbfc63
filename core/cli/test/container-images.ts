import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { RUN_ID_KEY } from './run-id.js';

/**
 * The container images the tests run (`render --docker`, the Cloudflare container, the Lambda
 * functions), built once per `vitest run` with Debian's podman and shared between test files:
 *
 * - every build runs under one file lock, so parallel test files never build twice at once;
 * - each build script keeps an image already built from the same inputs (a content hash of the
 *   packed workspaces, the Dockerfile and the base: SEEKFRAME_IMAGE_REUSE=1), so only changed
 *   code is rebuilt;
 * - a marker named after this run's id (vitest.global-setup.ts, run-id.ts) skips even that check after the
 *   first test file of a run that needed the image.
 *
 * No registry is asked for anything: the base comes from Debian's packages (mmdebstrap).
 */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const IMAGES = {
  base: 'localhost/seekframe-base:bookworm-node20',
  render: 'localhost/seekframe/render:test',
  cloudflare: 'localhost/seekframe/cloudflare-container:test',
  lambda: 'localhost/seekframe/lambda:test',
  // The render image under a tag of its own for the fleet's compose test (other checkouts on this
  // machine rebuild render:test with their own code), and the fleet's Redis from Debian's packages.
  fleet: 'localhost/seekframe/render:fleet-test',
  fleetRedis: 'localhost/seekframe/fleet-redis:test',
} as const;
export type ImageKind = Exclude<keyof typeof IMAGES, 'base'>;

const BUILD_SCRIPTS: Record<ImageKind, string[]> = {
  render: ['bash', 'infra/docker/build-image.sh', IMAGES.render],
  cloudflare: ['npm', 'run', '--silent', 'build:image', '-w', '@seekframe/app-cloudflare-container', '--', IMAGES.cloudflare],
  lambda: ['bash', 'infra/lambda/build-image.sh', IMAGES.lambda],
  fleet: ['bash', 'infra/docker/build-image.sh', IMAGES.fleet],
  fleetRedis: ['bash', 'infra/fleet/build-redis-image.sh', IMAGES.fleetRedis],
};
/** The Lambda image starts FROM the render image. */
const NEEDS: Partial<Record<ImageKind, ImageKind>> = { lambda: 'render' };

const LOCK = path.join(os.tmpdir(), 'seekframe-image-build.lock');
const MARKERS = path.join(os.tmpdir(), 'seekframe-image-build');

/** podman under the settings this kind of host needs (runc, cgroupfs, no default ulimits). */
export const CONTAINERS_CONF = path.join(REPO_ROOT, 'infra/podman/containers.conf');

/** podman-docker's `docker` (a script that runs podman): the `docker` command a podman-only machine has. */
const PODMAN_DOCKER = '/usr/bin/docker';

export type ContainerSupport = { ok: true; podman: string } | { ok: false; reason: string };

/**
 * Whether this machine can build and run the images: root, podman, podman-docker, mmdebstrap.
 * CI (root, Debian) gets them from scripts/setup.sh; elsewhere the tests skip with this reason.
 */
export function containerSupport(): ContainerSupport {
  const missing = ['/usr/bin/podman', PODMAN_DOCKER, '/usr/bin/mmdebstrap', '/usr/bin/flock'].filter((file) => !existsSync(file));
  if (process.getuid?.() !== 0) return { ok: false, reason: 'not root (the images are built and run with root podman, as on CI)' };
  if (missing.length)
    return {
      ok: false,
      reason: `missing ${missing.join(', ')} (scripts/setup.sh installs podman, podman-docker, runc, mmdebstrap as root)`,
    };
  if (!readFileSync(PODMAN_DOCKER, 'utf8').includes('podman'))
    return { ok: false, reason: `${PODMAN_DOCKER} is not podman-docker's wrapper` };
  return { ok: true, podman: '/usr/bin/podman' };
}

/**
 * `describe` for container tests: runs them where containerSupport() says yes, skips them with a
 * loud reason elsewhere, and fails on CI (where setup installs everything) instead of skipping.
 */
export function containerTestsEnabled(what: string): boolean {
  const support = containerSupport();
  if (support.ok) return true;
  if (process.env.CI) throw new Error(`${what}: cannot run on CI: ${support.reason}`);
  console.warn(`\n*** SKIPPED ${what}: ${support.reason} ***\n`);
  return false;
}

/** The environment every podman/docker call of the tests runs with. */
export function engineEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF, ...extra };
}

/**
 * A PATH whose `docker` is podman-docker's, ahead of any other docker CLI on this machine. Its
 * containers get no network (`run --network none`): the test compositions need none, and a test
 * container must not reach anything.
 */
export async function podmanDockerPath(dir: string): Promise<string> {
  const bin = path.join(dir, 'docker-bin');
  await mkdir(bin, { recursive: true });
  await writeFile(
    path.join(bin, 'docker'),
    `#!/bin/sh\nif [ "$1" = run ]; then shift; exec ${PODMAN_DOCKER} run --network none "$@"; fi\nexec ${PODMAN_DOCKER} "$@"\n`,
    { mode: 0o755 },
  );
  return `${bin}:${process.env.PATH ?? ''}`;
}

export interface EnsuredImage {
  image: string;
  /** Wall time of this call (the build, or the up-to-date check), for the report in the test log. */
  seconds: number;
  output: string;
}

/** Builds (or finds up to date) the image of `kind`, and what it starts FROM. */
export async function ensureImage(kind: ImageKind): Promise<EnsuredImage> {
  const needed = NEEDS[kind];
  if (needed) await ensureImage(needed);
  const runId = inject(RUN_ID_KEY);
  const marker = path.join(MARKERS, `${kind}-${runId}`);
  if (existsSync(marker)) return { image: IMAGES[kind], seconds: 0, output: 'built earlier in this run' };
  const startedAt = Date.now();
  const [command, ...args] = BUILD_SCRIPTS[kind];
  const { output } = await run(
    'flock',
    [LOCK, command!, ...args],
    engineEnv({
      SEEKFRAME_IMAGE_REUSE: '1',
      SEEKFRAME_BASE_IMAGE: 'local',
      SEEKFRAME_CONTAINER_CLI: 'podman',
      SEEKFRAME_RENDER_IMAGE: IMAGES.render,
    }),
  );
  await mkdir(MARKERS, { recursive: true });
  await writeFile(marker, `${new Date().toISOString()}\n`);
  const seconds = (Date.now() - startedAt) / 1000;
  console.log(`[images] ${IMAGES[kind]}: ${/up to date/.test(output) ? 'up to date' : 'built'} in ${seconds.toFixed(1)} s`);
  return { image: IMAGES[kind], seconds, output };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve({ stdout, output })
        : reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

/** Runs `podman <args>` (test plumbing: inspect, rm) and returns its stdout; throws with the output on failure. */
export async function podman(args: string[]): Promise<string> {
  return (await run('/usr/bin/podman', args, engineEnv())).stdout;
}
