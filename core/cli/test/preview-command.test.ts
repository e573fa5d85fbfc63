import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

// The published entry point, on the built dist/ (scripts/test.sh builds before the suite).
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/seekframe.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-preview-'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><html data-composition-id="p" data-width="160" data-height="90" data-duration="1"><head></head><body></body></html>',
  );
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('seekframe preview', () => {
  it('rejects a bad --port as a usage error (exit 2) naming the flag', async () => {
    const run = await runCli(['preview', dir, '--port', 'eighty'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--port must be a whole number from 0 to 65535, got "eighty"');
  });

  it('says when the folder has no index.html (exit 1)', async () => {
    const run = await runCli(['preview', path.join(dir, 'nope')], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('does not exist');
  });

  it('says which port is taken and how to pick another (exit 1)', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const run = await runCli(['preview', dir, '--port', String(port)], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Port ${port} is already in use; pass another one with --port <n>`);
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });

  it('the built bin serves the preview page and the player bundle, and stops cleanly on Ctrl-C', async () => {
    const child = spawn(process.execPath, [bin, 'preview', '.', '--port', '0'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: os.homedir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.on('close', () => reject(new Error(`preview exited early: ${stdout} ${stderr}`)));
    });
    expect(stdout).toContain('preview index.html at');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<seekframe-player id="player">');
    const player = await fetch(`${url}__seekframe/preview/seekframe-player.js`);
    expect(player.headers.get('content-type')).toContain('javascript');
    expect(await player.text()).toContain('seekframe-player');
    // The page script is the built bundle of src/preview/browser/preview-app.ts, found through the package's exports.
    const app = await fetch(`${url}__seekframe/preview/app.js`);
    expect(app.headers.get('content-type')).toContain('javascript');
    expect(await app.text()).toBe(await readFile(path.resolve(path.dirname(bin), '../dist/preview/preview-app.js'), 'utf8'));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
  });
});
