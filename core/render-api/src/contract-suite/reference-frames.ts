import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkoutCli } from './checkout-cli.js';
import { REPO_ROOT, type ParityComposition } from './preview-parity.js';

const run = promisify(execFile);

/** Everything a reference frame depends on besides the machine: the composition and the render's code. */
const RENDER_SOURCES = ['core/composition/src', 'core/runtime/src', 'core/engine/src', 'core/producer/src', 'core/cli/src'];

async function hashTree(hash: ReturnType<typeof createHash>, dir: string, skip: (name: string) => boolean): Promise<void> {
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
    if (skip(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await hashTree(hash, full, skip);
    else if (entry.isFile()) hash.update(path.relative(REPO_ROOT, full)).update(await readFile(full));
  }
}

async function cacheKey(composition: ParityComposition): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ times: composition.times, fps: composition.fps }));
  await hashTree(hash, composition.dir, (name) => name === 'test' || name === 'node_modules' || name === 'renders');
  for (const dir of RENDER_SOURCES) {
    if (existsSync(path.join(REPO_ROOT, dir))) await hashTree(hash, path.join(REPO_ROOT, dir), (name) => name.endsWith('.test.ts'));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The rendered frames (PNG, the render's own size) at the composition's times, rendered once for
 * as long as the composition and the render's code stay the same: every preview test of a run
 * (each in its own worker) shares them. A lock folder makes parallel callers wait for the one
 * that renders instead of rendering again.
 */
export async function referenceFrames(composition: ParityComposition): Promise<string[]> {
  const root = path.join(os.tmpdir(), 'seekframe-parity-reference');
  await mkdir(root, { recursive: true });
  const dir = path.join(root, `${composition.name}-${await cacheKey(composition)}`);
  const frames = composition.times.map((t) => path.join(dir, `frame_${String(Math.round(t * composition.fps) + 1).padStart(6, '0')}.png`));
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(dir)) return frames;
    try {
      await mkdir(lock);
    } catch {
      // Another worker renders it; a lock older than 10 minutes belongs to a run that died.
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > 600_000) await rm(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      const partial = `${dir}.partial-${process.pid}`;
      await rm(partial, { recursive: true, force: true });
      const last = Math.max(...composition.times);
      // The CLI from this checkout's sources (a stale build never renders the reference).
      const cli = checkoutCli();
      await run(
        cli.command,
        [
          ...cli.args,
          'render',
          composition.dir,
          '--format',
          'png-sequence',
          '--fps',
          String(composition.fps),
          '--workers',
          '1',
          '-q',
          '-o',
          partial,
        ],
        { cwd: os.tmpdir(), maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stderr?: string }) => {
        throw new Error(`the reference render of ${composition.dir} failed:\n${error.stderr ?? String(error)}`);
      });
      if (!existsSync(path.join(partial, `frame_${String(Math.round(last * composition.fps) + 1).padStart(6, '0')}.png`)))
        throw new Error(`the reference render of ${composition.dir} has no frame at ${last} s`);
      await rename(partial, dir);
      return frames;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}
