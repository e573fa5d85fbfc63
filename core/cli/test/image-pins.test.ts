import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerTestsEnabled, engineEnv, ensureImage, IMAGES, podman, REPO_ROOT } from './container-images.js';

/**
 * Pins that do not rot: Debian's security archive keeps only the newest build of a package, so a
 * preferred version in a Dockerfile is gone a few weeks after it was written. The images install
 * through infra/docker/apt-install-pinned.sh, which then takes the archive's current version and
 * says so; image-lib.sh's seekframe_build records what was installed as labels. A real build (with
 * the same script and labelling as the images, on the same base) whose preferred version does not
 * exist must succeed, say so, and label the version it installed.
 */
const enabled = containerTestsEnabled('image pin tests');

describe.skipIf(!enabled)('a build whose preferred version is gone from the archive', () => {
  let context: string;
  const image = 'localhost/seekframe/pin-gone:test';

  beforeAll(async () => {
    // The base image the render image builds on (made from Debian's packages when missing).
    await ensureImage('render');
    context = await mkdtemp(path.join(os.tmpdir(), 'seekframe-pin-gone-'));
    await copyFile(path.join(REPO_ROOT, 'infra/docker/apt-install-pinned.sh'), path.join(context, 'apt-install-pinned.sh'));
    await writeFile(
      path.join(context, 'Dockerfile'),
      [
        'ARG BASE_IMAGE',
        'FROM ${BASE_IMAGE}',
        'COPY apt-install-pinned.sh /usr/local/lib/seekframe/apt-install-pinned.sh',
        // A version Debian never had, and one the security archive replaced (the pin the images had).
        'ARG TINI_VERSION=0.0-gone-1',
        'RUN sh /usr/local/lib/seekframe/apt-install-pinned.sh tini=${TINI_VERSION} ca-certificates',
        '',
      ].join('\n'),
    );
  }, 30 * 60_000);
  afterAll(async () => {
    await podman(['rmi', '--force', image]).catch(() => undefined);
    if (context) await rm(context, { recursive: true, force: true });
  });

  it(
    'succeeds with the current version, says so in the build output, and records it in the image and its labels',
    async () => {
      const script = `. infra/docker/image-lib.sh && seekframe_engine "$PWD" && seekframe_build ${image} test-inputs ${context} ${context}/Dockerfile --build-arg=BASE_IMAGE=${IMAGES.base}`;
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn('bash', ['-c', script], { cwd: REPO_ROOT, env: engineEnv({ SEEKFRAME_CONTAINER_CLI: 'podman' }) });
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
        child.on('close', (exit) => resolve({ code: exit, output: text }));
      });
      expect(code, output).toBe(0);
      expect(output).toMatch(
        /seekframe image: the preferred tini=0\.0-gone-1 is no longer in Debian's archive; installing the current \S+ instead/,
      );

      const labels = JSON.parse(await podman(['image', 'inspect', '--format', '{{json .Config.Labels}}', image])) as Record<string, string>;
      expect(labels['seekframe.pins']).toBe('current instead of tini=0.0-gone-1');
      expect(labels['seekframe.version.tini']).toMatch(/^0\.\d+/);
      expect(labels['seekframe.version.ca-certificates']).toBeTruthy();
      const record = JSON.parse(
        await podman(['run', '--rm', '--network', 'none', image, 'cat', '/usr/share/seekframe/image-versions.json']),
      ) as {
        packages: Record<string, { version: string; preferred: string | null }>;
        fallbacks: string[];
      };
      expect(record.fallbacks).toEqual(['tini=0.0-gone-1']);
      expect(record.packages.tini).toEqual({ version: labels['seekframe.version.tini'], preferred: '0.0-gone-1' });
    },
    15 * 60_000,
  );
});
