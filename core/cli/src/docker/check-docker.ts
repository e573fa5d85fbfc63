import { request } from 'node:http';
import { SeekframeError } from '@seekframe/composition';
import { findOnPath } from '@seekframe/engine';
import { runDockerCli } from './run-docker-cli.js';

/** Every question to the engine gets this long: a wedged daemon must not hang the render. */
export const DOCKER_CHECK_TIMEOUT_MS = 5_000;

export interface DockerStatus {
  docker: string;
  /** How the engine was reached: its API directly, or through the docker CLI (contexts, ssh, TLS). */
  endpoint: string;
  serverVersion?: string;
  image: string;
}

/** The command a user runs to make the image (from the repository root). */
export function imageBuildHint(image: string): string {
  return `build it from a Seekframe checkout with \`bash infra/docker/build-image.sh ${image}\` (packs the CLI, then docker build -t ${image} infra/docker), or docker pull ${image} if your registry has it`;
}

type Endpoint = { kind: 'socket'; socketPath: string; label: string } | { kind: 'tcp'; host: string; port: number; label: string } | { kind: 'cli'; label: string };

/** DOCKER_HOST as the engine API endpoint we can ask directly; contexts, ssh and TLS go through the CLI. */
export function dockerEndpoint(env: NodeJS.ProcessEnv): Endpoint {
  const host = env.DOCKER_HOST;
  if (!host) {
    if (env.DOCKER_CONTEXT) return { kind: 'cli', label: `docker context ${env.DOCKER_CONTEXT}` };
    return { kind: 'socket', socketPath: '/var/run/docker.sock', label: 'unix:///var/run/docker.sock' };
  }
  if (host.startsWith('unix://')) return { kind: 'socket', socketPath: host.slice('unix://'.length), label: host };
  const tcp = /^tcp:\/\/(\[[^\]]+\]|[^:/]+)(?::(\d+))?\/?$/.exec(host);
  if (tcp && !env.DOCKER_TLS_VERIFY) return { kind: 'tcp', host: tcp[1]!.replace(/^\[|\]$/g, ''), port: Number(tcp[2] ?? 2375), label: host };
  return { kind: 'cli', label: host };
}

/**
 * Is Docker usable for `render --docker`: the docker CLI on PATH, an engine that answers, and the
 * image present. Each failure is a SeekframeError naming the fix; nothing waits longer than
 * DOCKER_CHECK_TIMEOUT_MS per question.
 */
export async function checkDocker(options: { env: NodeJS.ProcessEnv; image: string; timeoutMs?: number }): Promise<DockerStatus> {
  const timeoutMs = options.timeoutMs ?? DOCKER_CHECK_TIMEOUT_MS;
  const docker = await findOnPath('docker', options.env.PATH ?? '');
  if (!docker) {
    throw new SeekframeError('docker-not-found', '--docker needs the docker command, and it is not on PATH. Install Docker (https://docs.docker.com/engine/install/), or render without --docker.', {
      stage: 'config',
    });
  }
  const endpoint = dockerEndpoint(options.env);
  const unreachable = (why: string): SeekframeError =>
    new SeekframeError(
      'docker-unreachable',
      `The Docker engine at ${endpoint.label} does not answer (${why}). Start Docker (sudo systemctl start docker, or open Docker Desktop), check DOCKER_HOST, then try again.`,
      { stage: 'config', retryable: true, details: { endpoint: endpoint.label } },
    );
  const missing = (): SeekframeError =>
    new SeekframeError('docker-image-missing', `The Docker image ${options.image} is not present on ${endpoint.label}: ${imageBuildHint(options.image)}.`, {
      stage: 'config',
      details: { image: options.image },
    });

  if (endpoint.kind === 'cli') {
    const info = await runDockerCli(docker, ['version', '--format', '{{.Server.Version}}'], { timeoutMs, env: options.env });
    if (info.timedOut) throw unreachable(`no answer within ${timeoutMs / 1000} s`);
    if (info.code !== 0) throw unreachable(lastLine(info.stderr) || `docker version exited with ${info.code}`);
    const image = await runDockerCli(docker, ['image', 'inspect', '--format', '{{.Id}}', options.image], { timeoutMs, env: options.env });
    if (image.timedOut) throw unreachable(`no answer within ${timeoutMs / 1000} s`);
    if (image.code !== 0) throw missing();
    return { docker, endpoint: endpoint.label, serverVersion: info.stdout.trim(), image: options.image };
  }

  const ping = await engineGet(endpoint, '/_ping', timeoutMs).catch((error: Error) => {
    throw unreachable(error.message);
  });
  if (ping.status !== 200) throw unreachable(`/_ping answered HTTP ${ping.status}`);
  const image = await engineGet(endpoint, `/images/${encodeURIComponent(options.image)}/json`, timeoutMs).catch((error: Error) => {
    throw unreachable(error.message);
  });
  if (image.status === 404) throw missing();
  if (image.status !== 200) throw unreachable(`image lookup answered HTTP ${image.status}`);
  return { docker, endpoint: endpoint.label, ...(ping.headers['api-version'] ? { serverVersion: `API ${String(ping.headers['api-version'])}` } : {}), image: options.image };
}

function engineGet(endpoint: Exclude<Endpoint, { kind: 'cli' }>, pathname: string, timeoutMs: number): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const target = endpoint.kind === 'socket' ? { socketPath: endpoint.socketPath } : { host: endpoint.host, port: endpoint.port };
    const req = request({ ...target, path: pathname, method: 'GET', headers: { host: 'docker' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (error: NodeJS.ErrnoException) => reject(new Error(describeSocketError(error))));
    req.end();
  });
}

function describeSocketError(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'the socket does not exist: Docker is not running or not installed';
  if (error.code === 'ECONNREFUSED') return 'connection refused';
  if (error.code === 'EACCES') return 'permission denied on the socket: add your user to the docker group';
  return error.message;
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
