import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
export const REPO_ROOT = path.resolve(APP_DIR, '../..');
const STAMP = path.join(APP_DIR, '.next', 'seekframe-build-hash');

/** What `next build` reads: the app's own files and the built workspace packages it bundles. */
const BUILD_INPUTS = [
  'apps/vercel-sandbox/app',
  'apps/vercel-sandbox/lib',
  'apps/vercel-sandbox/public',
  'apps/vercel-sandbox/next.config.mjs',
  'apps/vercel-sandbox/package.json',
  'adapters/vercel-sandbox/dist',
  'adapters/render-api/dist',
  'core/composition/dist',
  'core/player/dist',
];

async function hashInputs(): Promise<string> {
  const hash = createHash('sha256');
  const visit = async (file: string): Promise<void> => {
    const info = await stat(file).catch(() => null);
    if (!info) return;
    if (info.isDirectory()) {
      for (const entry of (await readdir(file)).sort()) await visit(path.join(file, entry));
      return;
    }
    hash.update(path.relative(REPO_ROOT, file));
    hash.update(await readFile(file));
  };
  for (const input of BUILD_INPUTS) await visit(path.join(REPO_ROOT, input));
  return hash.digest('hex');
}

/**
 * Builds this template's adapter (the code under test; the other workspace packages come from
 * the set-up's build) and then the app with `next build`, unless `.next` was built from exactly
 * these inputs already (a source hash is kept beside it). No network: telemetry off, no Google
 * fonts.
 */
export async function buildNextAppOnce(): Promise<void> {
  await run('npm', ['run', 'build', '--silent', '-w', '@seekframe/vercel-sandbox'], { cwd: REPO_ROOT, maxBuffer: 32 * 1024 * 1024 });
  const hash = await hashInputs();
  if (existsSync(STAMP) && (await readFile(STAMP, 'utf8')) === hash) return;
  await run('npx', ['--no-install', 'next', 'build'], { cwd: APP_DIR, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }, maxBuffer: 32 * 1024 * 1024 });
  await writeFile(STAMP, hash);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface NextServer {
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

/** `next start` on 127.0.0.1 with the given environment, ready when /api/composition answers. */
export async function startNextServer(env: Record<string, string>): Promise<NextServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(path.join(REPO_ROOT, 'node_modules/.bin/next'), ['start', '-p', String(port), '-H', '127.0.0.1'], {
    cwd: APP_DIR,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (process.env.SEEKFRAME_DEBUG_NEXT) process.stderr.write(`--- next start output ---\n${output}\n`);
    if (child.exitCode === null && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
    }
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${baseUrl}/api/composition`).then((r) => r.status < 500, () => false);
    if (ready) return { baseUrl, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`next start did not answer within 60 s:\n${output}`);
}
