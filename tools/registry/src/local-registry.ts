import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { cleanEnv, runCommand } from './run-command.js';

const VERDACCIO_BIN = fileURLToPath(new URL('../node_modules/verdaccio/bin/verdaccio', import.meta.url));

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** An npm user config with this registry and a token for it: pass it as `--userconfig`. */
  userconfig: string;
  stop(): Promise<void>;
}

export interface LocalRegistryOptions {
  /** Folder for the config, the storage and the npm user config (created if missing). */
  dir: string;
  /** Registry that packages not published here come from; default `npm config get registry`. */
  uplink?: string;
}

/** The registry npm is configured with on this machine (a mirror or the public one). */
export async function configuredRegistry(): Promise<string> {
  const { stdout } = await runCommand('npm', ['config', 'get', 'registry']);
  return stdout.trim();
}

/**
 * Verdaccio on 127.0.0.1 with its storage in `dir`: Seekframe's packages (`seekframe`,
 * `create-seekframe`, `@seekframe/*`) are published here, everything else comes through from the
 * uplink (and is cached in the storage).
 */
export async function startLocalRegistry(options: LocalRegistryOptions): Promise<LocalRegistry> {
  if (!existsSync(VERDACCIO_BIN)) {
    throw new Error('Verdaccio is not installed in tools/registry: run `bash scripts/setup.sh` (or `npm ci --prefix tools/registry`).');
  }
  const uplink = options.uplink ?? (await configuredRegistry());
  await mkdir(options.dir, { recursive: true });
  const config = path.join(options.dir, 'config.yaml');
  const own = { access: '$all', publish: '$anonymous' };
  // JSON is YAML: no YAML writer needed.
  await writeFile(
    config,
    JSON.stringify(
      {
        storage: path.join(options.dir, 'storage'),
        // maxage: a package's metadata fetched once is reused for the whole run (default 2 min).
        uplinks: { upstream: { url: uplink, timeout: '60s', max_fails: 10, maxage: '60m' } },
        packages: {
          seekframe: own,
          'create-seekframe': own,
          '@seekframe/*': own,
          '**': { access: '$all', proxy: 'upstream' },
        },
        // Large tarballs (next, workerd) pass through; renders and tests log nothing per request.
        max_body_size: '200mb',
        log: { type: 'stdout', format: 'json', level: 'error' },
        web: { enable: false },
      },
      null,
      2,
    ),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(process.execPath, [VERDACCIO_BIN, '--config', config, '--listen', `127.0.0.1:${port}`], {
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  await waitForPing(url, child, () => output);
  const userconfig = path.join(options.dir, 'npmrc');
  const host = url.replace(/^http:/, '');
  // Publishing needs a token even when the registry allows anonymous publishes; any value does.
  await writeFile(userconfig, `registry=${url}\n${host}:_authToken=local-registry\n`);
  return { url, userconfig, stop: () => stop(child) };
}

async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  // Generous: Verdaccio starts in a few seconds, many more on a loaded machine.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited (code ${child.exitCode}) before answering:\n${output()}`);
    const ok = await fetch(`${url}-/ping`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Verdaccio did not answer ${url}-/ping within 90 s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
