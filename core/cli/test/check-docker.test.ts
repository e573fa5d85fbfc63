import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { checkDocker, dockerEndpoint } from '../src/docker/check-docker.js';

let dir: string;
/** A folder whose `docker` is an executable that is never run: the checks talk to the engine API. */
let stubPath: string;
const servers: Server[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-docker-'));
  stubPath = path.join(dir, 'bin');
  await mkdir(stubPath);
  await writeFile(path.join(stubPath, 'docker'), '#!/bin/sh\nexit 99\n');
  await chmod(path.join(stubPath, 'docker'), 0o755);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await rm(dir, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<SeekframeError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeekframeError);
  return error as SeekframeError;
}

/** A port nothing listens on: bound once, then closed. */
async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A stand-in engine on 127.0.0.1 answering the two API calls the check makes. */
async function engine(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `tcp://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const image = 'seekframe/render:0.1.0';

describe('checkDocker', () => {
  it('no docker on PATH: docker-not-found, telling the user to install Docker', async () => {
    const error = await rejection(checkDocker({ env: { PATH: dir }, image }));
    expect(error.code).toBe('docker-not-found');
    expect(error.message).toMatch(/docker command, and it is not on PATH\. Install Docker/);
  });

  it('DOCKER_HOST at a closed loopback port: docker-unreachable, telling the user to start Docker', async () => {
    const host = `tcp://127.0.0.1:${await closedPort()}`;
    const error = await rejection(checkDocker({ env: { PATH: stubPath, DOCKER_HOST: host }, image }));
    expect(error.code).toBe('docker-unreachable');
    expect(error.message).toBe(
      `The Docker engine at ${host} does not answer (connection refused). Start Docker (sudo systemctl start docker, or open Docker Desktop), check DOCKER_HOST, then try again.`,
    );
    expect(error.retryable).toBe(true);
  });

  it('DOCKER_HOST at a unix socket that does not exist: docker-unreachable', async () => {
    const error = await rejection(checkDocker({ env: { PATH: stubPath, DOCKER_HOST: `unix://${dir}/missing.sock` }, image }));
    expect(error.code).toBe('docker-unreachable');
    expect(error.message).toMatch(/the socket does not exist.*Start Docker/);
  });

  it('an engine that accepts but never answers is given up on after the time limit, not waited for', async () => {
    const host = await engine(() => undefined);
    const startedAt = Date.now();
    const error = await rejection(checkDocker({ env: { PATH: stubPath, DOCKER_HOST: host }, image, timeoutMs: 300 }));
    expect(error.code).toBe('docker-unreachable');
    expect(error.message).toMatch(/no answer within 0\.3 s/);
    // Bounded by the timer, not by the test's own timeout (this is not a speed assertion).
    expect(Date.now() - startedAt).toBeLessThan(30_000);
  });

  it('an engine without the image: docker-image-missing with the build and pull commands', async () => {
    const asked: string[] = [];
    const host = await engine((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/_ping') res.writeHead(200, { 'api-version': '1.45' }).end('OK');
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"No such image"}');
    });
    const error = await rejection(checkDocker({ env: { PATH: stubPath, DOCKER_HOST: host }, image }));
    expect(error.code).toBe('docker-image-missing');
    expect(error.message).toContain(`The Docker image ${image} is not present on ${host}`);
    expect(error.message).toContain(`bash infra/docker/build-image.sh ${image}`);
    expect(error.message).toContain('Docker or podman: packs the CLI, then builds infra/docker/Dockerfile');
    expect(error.message).toContain(`docker pull ${image}`);
    expect(asked).toEqual(['/_ping', `/images/${encodeURIComponent(image)}/json`]);
  });

  it('an engine with the image: usable, with the versions its labels record', async () => {
    const labels = {
      'seekframe.version.chromium-headless-shell': '156.0.8078.108-1~deb12u1',
      'seekframe.pins': 'preferred',
      maintainer: 'someone',
    };
    const host = await engine((req, res) =>
      res.writeHead(200, { 'api-version': '1.45' }).end(req.url === '/_ping' ? 'OK' : JSON.stringify({ Config: { Labels: labels } })),
    );
    await expect(checkDocker({ env: { PATH: stubPath, DOCKER_HOST: host }, image })).resolves.toEqual({
      docker: path.join(stubPath, 'docker'),
      endpoint: host,
      serverVersion: 'API 1.45',
      image,
      imageVersions: { 'chromium-headless-shell': '156.0.8078.108-1~deb12u1', pins: 'preferred' },
    });
  });

  // Where a Docker engine listens on the default socket, that engine answers instead.
  it.skipIf(existsSync('/var/run/docker.sock'))(
    'no DOCKER_HOST and no socket at the default path: asks the docker CLI (podman-docker, Docker Desktop contexts)',
    async () => {
      // A docker command that answers like podman-docker's: version, --version and image inspect.
      const cliPath = path.join(dir, 'cli-bin');
      await mkdir(cliPath, { recursive: true });
      await writeFile(
        path.join(cliPath, 'docker'),
        `#!/bin/sh
case "$1" in
  version) echo 4.3.1 ;;
  --version) echo "podman version 4.3.1" ;;
  image) [ "$5" = "${image}" ] && echo '{"seekframe.version.ffmpeg":"7:5.1.9-0+deb12u1"}' || { echo "Error: image not known" >&2; exit 125; } ;;
esac
`,
      );
      await chmod(path.join(cliPath, 'docker'), 0o755);
      const status = await checkDocker({ env: { PATH: cliPath }, image });
      expect(status).toMatchObject({
        endpoint: 'podman (through the docker command)',
        serverVersion: 'podman 4.3.1',
        imageVersions: { ffmpeg: '7:5.1.9-0+deb12u1' },
      });
      const error = await rejection(checkDocker({ env: { PATH: cliPath }, image: 'other/image:1' }));
      expect(error.code).toBe('docker-image-missing');
      expect(error.message).toMatch(/^The Docker image other\/image:1 is not present on podman \(through the docker command\): build it/);
    },
  );
});

describe('dockerEndpoint', () => {
  it('reads DOCKER_HOST; contexts, ssh and TLS go through the docker CLI', () => {
    expect(dockerEndpoint({})).toMatchObject({ kind: 'socket', socketPath: '/var/run/docker.sock' });
    expect(dockerEndpoint({ DOCKER_HOST: 'unix:///run/user/1000/docker.sock' })).toMatchObject({
      kind: 'socket',
      socketPath: '/run/user/1000/docker.sock',
    });
    expect(dockerEndpoint({ DOCKER_HOST: 'tcp://127.0.0.1:2375' })).toMatchObject({ kind: 'tcp', host: '127.0.0.1', port: 2375 });
    expect(dockerEndpoint({ DOCKER_HOST: 'tcp://[::1]:2376/' })).toMatchObject({ kind: 'tcp', host: '::1', port: 2376 });
    expect(dockerEndpoint({ DOCKER_HOST: 'tcp://127.0.0.1:2376', DOCKER_TLS_VERIFY: '1' }).kind).toBe('cli');
    expect(dockerEndpoint({ DOCKER_HOST: 'ssh://me@build' }).kind).toBe('cli');
    expect(dockerEndpoint({ DOCKER_CONTEXT: 'desktop-linux' }).kind).toBe('cli');
  });
});
