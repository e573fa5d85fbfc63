import { request } from 'node:http';
import { SeekframeError } from '@seekframe/composition';
import { findOnPath } from '@seekframe/engine';
import { runDockerCli } from './run-docker-cli.js';

/** Every question to the engine gets this long: a wedged daemon must not hang the render. */
export const DOCKER_CHECK_TIMEOUT_MS = 5_000;

export interface DockerStatus {
  docker: string;
  /** How the engine was reached: its API directly, or through the docker CLI (contexts, ssh, TLS, podman). */
  endpoint: string;
  serverVersion?: string;
  image: string;
  /**
   * What the image says it holds: its `seekframe.version.<package>` labels (Chromium, ffmpeg,
   * fonts, Debian), and `pins` (`preferred`, or which preferred versions were gone at build time).
   * Empty for an image built without build-image.sh's labels.
   */
  imageVersions?: Record<string, string>;
}

/** Label prefix of the package versions build-image.sh records (infra/docker/image-lib.sh). */
const VERSION_LABEL = 'seekframe.version.';

/** The `seekframe.version.*` and `seekframe.pins` labels of an image, keyed without the prefix. */
export function imageVersionsFromLabels(labels: Record<string, string> | null | undefined): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels ?? {})) {
    if (key.startsWith(VERSION_LABEL)) versions[key.slice(VERSION_LABEL.length)] = value;
    else if (key === 'seekframe.pins') versions.pins = value;
  }
  return versions;
}

/** The command a user runs to make the image (from the repository root). */
export function imageBuildHint(image: string): string {
  return `build it from a Seekframe checkout with \`bash infra/docker/build-image.sh ${image}\` (Docker or podman: packs the CLI, then builds infra/docker/Dockerfile), or docker pull ${image} if your registry has it`;
}

type Endpoint =
  | { kind: 'socket'; socketPath: string; label: string }
  | { kind: 'tcp'; host: string; port: number; label: string }
  | { kind: 'cli'; label: string };

/**
 * DOCKER_HOST as the engine API endpoint we can ask directly; contexts, ssh and TLS go through
 * the CLI. Without DOCKER_HOST the default socket is tried first and, when it does not exist,
 * the CLI (Docker Desktop's contexts, podman behind podman-docker's `docker`).
 */
export function dockerEndpoint(env: NodeJS.ProcessEnv): Endpoint {
  const host = env.DOCKER_HOST;
  if (!host) {
    if (env.DOCKER_CONTEXT) return { kind: 'cli', label: `docker context ${env.DOCKER_CONTEXT}` };
    return { kind: 'socket', socketPath: '/var/run/docker.sock', label: 'unix:///var/run/docker.sock' };
  }
  if (host.startsWith('unix://')) return { kind: 'socket', socketPath: host.slice('unix://'.length), label: host };
  const tcp = /^tcp:\/\/(\[[^\]]+\]|[^:/]+)(?::(\d+))?\/?$/.exec(host);
  if (tcp && !env.DOCKER_TLS_VERIFY)
    return { kind: 'tcp', host: tcp[1]!.replace(/^\[|\]$/g, ''), port: Number(tcp[2] ?? 2375), label: host };
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
    throw new SeekframeError(
      'docker-not-found',
      '--docker needs the docker command, and it is not on PATH. Install Docker (https://docs.docker.com/engine/install/), or render without --docker.',
      {
        stage: 'config',
      },
    );
  }
  const endpoint = dockerEndpoint(options.env);
  const unreachable = (why: string): SeekframeError =>
    new SeekframeError(
      'docker-unreachable',
      `The Docker engine at ${endpoint.label} does not answer (${why}). Start Docker (sudo systemctl start docker, or open Docker Desktop), check DOCKER_HOST, then try again.`,
      { stage: 'config', retryable: true, details: { endpoint: endpoint.label } },
    );
  const missing = (where: string = endpoint.label): SeekframeError =>
    new SeekframeError(
      'docker-image-missing',
      `The Docker image ${options.image} is not present on ${where}: ${imageBuildHint(options.image)}.`,
      {
        stage: 'config',
        details: { image: options.image },
      },
    );

  const askCli = async (label: string): Promise<DockerStatus> => {
    const cli = (args: string[]) => runDockerCli(docker, args, { timeoutMs, env: options.env });
    const info = await cli(['version', '--format', '{{.Server.Version}}']);
    if (info.timedOut) throw unreachable(`no answer within ${timeoutMs / 1000} s`);
    if (info.code !== 0) throw unreachable(lastLine(info.stderr) || `docker version exited with ${info.code}`);
    // podman-docker's `docker` is podman itself: say so, it explains podman's messages.
    const podman = /podman/i.test((await cli(['--version'])).stdout);
    const where = podman ? 'podman (through the docker command)' : label;
    const image = await cli(['image', 'inspect', '--format', '{{json .Config.Labels}}', options.image]);
    if (image.timedOut) throw unreachable(`no answer within ${timeoutMs / 1000} s`);
    if (image.code !== 0) throw missing(where);
    return {
      docker,
      endpoint: where,
      serverVersion: `${podman ? 'podman ' : ''}${info.stdout.trim()}`,
      image: options.image,
      imageVersions: imageVersionsFromLabels(parseLabels(image.stdout)),
    };
  };

  if (endpoint.kind === 'cli') return askCli(endpoint.label);

  const ping = await engineGet(endpoint, '/_ping', timeoutMs).catch((error: Error & { socketMissing?: boolean }) => {
    // No DOCKER_HOST and no socket at the default path: the CLI knows where its engine is.
    if (error.socketMissing && !options.env.DOCKER_HOST) return null;
    throw unreachable(error.message);
  });
  if (ping === null) return askCli("the docker CLI's engine");
  if (ping.status !== 200) throw unreachable(`/_ping answered HTTP ${ping.status}`);
  const image = await engineGet(endpoint, `/images/${encodeURIComponent(options.image)}/json`, timeoutMs).catch((error: Error) => {
    throw unreachable(error.message);
  });
  if (image.status === 404) throw missing();
  if (image.status !== 200) throw unreachable(`image lookup answered HTTP ${image.status}`);
  return {
    docker,
    endpoint: endpoint.label,
    ...(ping.headers['api-version'] ? { serverVersion: `API ${String(ping.headers['api-version'])}` } : {}),
    image: options.image,
    imageVersions: imageVersionsFromLabels(parseLabels(image.body, (body) => (body as { Config?: { Labels?: unknown } }).Config?.Labels)),
  };
}

/** Labels from JSON text (the CLI's `{{json .Config.Labels}}`, or the API's image object via `pick`); {} when unreadable. */
function parseLabels(text: string, pick: (body: unknown) => unknown = (body) => body): Record<string, string> {
  try {
    const labels = pick(JSON.parse(text));
    if (!labels || typeof labels !== 'object') return {};
    return Object.fromEntries(Object.entries(labels).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

function engineGet(
  endpoint: Exclude<Endpoint, { kind: 'cli' }>,
  pathname: string,
  timeoutMs: number,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const target = endpoint.kind === 'socket' ? { socketPath: endpoint.socketPath } : { host: endpoint.host, port: endpoint.port };
    const req = request({ ...target, path: pathname, method: 'GET', headers: { host: 'docker' } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    req.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        Object.assign(new Error(describeSocketError(error)), { socketMissing: endpoint.kind === 'socket' && error.code === 'ENOENT' }),
      ),
    );
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
