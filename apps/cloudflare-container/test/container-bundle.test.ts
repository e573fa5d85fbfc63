import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitUntilAnswers } from '@seekframe/render-api/contract-suite';
import { afterAll, describe, expect, it } from 'vitest';
import { buildContainerContext } from '../scripts/build.mjs';
import { probeVideo, TINY_COMPOSITION } from './helpers/start-render-server.js';

/**
 * The image's contents as scripts/build.mjs writes them (the Docker build itself cannot run here):
 * the packed Seekframe packages and the npm packages the composition uses, the composition, and the bundled server, which is then started
 * the way the Dockerfile's CMD starts it and renders over HTTP.
 */
const outDir = new URL(`../.test-container-${process.pid}/`, import.meta.url).pathname;
let server: ChildProcess | undefined;
let workDir: string | undefined;

afterAll(async () => {
  server?.kill('SIGKILL');
  await rm(outDir, { recursive: true, force: true });
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('container image contents (scripts/build.mjs)', () => {
  it('packs the Seekframe packages, copies the composition, and the bundled server renders and stops on SIGTERM', async () => {
    const { packs } = await buildContainerContext({ compositionDir: TINY_COMPOSITION, outDir });
    // gsap: the composition takes it from npm (a node_modules/ path); the image installs it beside the Seekframe packages.
    expect(packs.map((name) => name.replace(/-\d+\.\d+\.\d+\.tgz$/, ''))).toEqual([
      'gsap',
      'seekframe-composition',
      'seekframe-engine',
      'seekframe-producer',
      'seekframe-runtime',
    ]);
    expect(existsSync(join(outDir, 'composition/index.html'))).toBe(true);
    expect(await readdir(join(outDir, 'composition'))).not.toContain('test');

    workDir = await mkdtemp(join(tmpdir(), 'seekframe-cf-bundle-'));
    const port = await freePort();
    server = spawn(process.execPath, [join(outDir, 'server.mjs')], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        COMPOSITION_DIR: join(outDir, 'composition'),
        WORK_DIR: workDir,
        RENDER_WORKERS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    server.stdout!.on('data', (chunk) => (output += chunk));
    server.stderr!.on('data', (chunk) => (output += chunk));
    const base = `http://127.0.0.1:${port}`;
    await waitUntilAnswers(`${base}/health`, { name: 'the bundled server.mjs', exitCode: () => server!.exitCode, details: () => output });

    expect((await fetch(`${base}/jobs/bundle-1`, { method: 'PUT' })).status).toBe(201);
    const render = await fetch(`${base}/jobs/bundle-1/render`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ variables: { title: 'Img' } }),
    });
    const last = JSON.parse((await render.text()).trim().split('\n').at(-1)!) as { type: string };
    expect(last.type, `${JSON.stringify(last)}\n${output}`).toBe('complete');
    const file = await fetch(`${base}/jobs/bundle-1/output`);
    expect(Number(file.headers.get('content-length'))).toBeGreaterThan(0);
    await writeFile(join(workDir, 'out.mp4'), new Uint8Array(await file.arrayBuffer()));
    expect(await probeVideo(join(workDir, 'out.mp4'))).toMatchObject({ width: 160, height: 90, frames: 10 });

    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    server = undefined;
  }, 180_000);
});
