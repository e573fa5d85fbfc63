import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkoutCli } from '@seekframe/render-api/contract-suite';
import { isBrowserMain, processKind } from './process-kind.js';

describe('the unit project refuses real-process tests (unit-guard.ts, a setup file of the unit project)', () => {
  it('a browser, ffmpeg, ffprobe, npm, podman or the CLI fails the test at its start, naming where the file belongs', () => {
    const refused = /runs in the `unit` project[\s\S]*test\/ folder \(the `heavy` project/;
    expect(() => spawn('chromium', ['--version'])).toThrow(refused);
    expect(() => spawn('/usr/bin/ffmpeg', ['-version'])).toThrow(refused);
    expect(() => spawnSync('ffprobe', ['-version'])).toThrow(refused);
    expect(() => execFileSync('npm', ['--version'])).toThrow(refused);
    expect(() => execFile('podman', ['--version'])).toThrow(refused);
    const cli = checkoutCli();
    expect(() => spawn(cli.command, [...cli.args, '--version'])).toThrow(refused);
    expect(() => spawn('sh', ['-c', 'ffmpeg -version'])).toThrow(refused);
  });

  it('a small node script, git or a shell command still runs', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', 'process.stdout.write("ok")']);
    expect(stdout).toBe('ok');
    expect(spawnSync('sh', ['-c', 'echo hi']).stdout.toString()).toBe('hi\n');
  });

  it('a stand-in the test wrote into a temp folder runs, whatever its name', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-unit-guard-'));
    try {
      await writeFile(path.join(dir, 'ffmpeg'), '#!/bin/sh\necho stand-in\n');
      await chmod(path.join(dir, 'ffmpeg'), 0o755);
      const byPath = await promisify(execFile)(path.join(dir, 'ffmpeg'), []);
      expect(byPath.stdout).toBe('stand-in\n');
      const byName = spawnSync('ffmpeg', [], { env: { PATH: dir } });
      expect(byName.stdout.toString()).toBe('stand-in\n');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('processKind: what a command or a running process is', () => {
  it.each([
    [['/usr/lib/chromium/chromium-headless-shell', '--headless'], 'chromium'],
    [['/usr/lib/chromium/chromium --type=renderer --lang=en'], 'chromium'],
    [['taskset', '-c', '0', '/usr/bin/chromium', '--headless'], 'chromium'],
    [['ffmpeg', '-i', 'x'], 'ffmpeg'],
    [['flock', '/tmp/lock', 'bash', 'infra/docker/build-image.sh'], 'shell'],
    [['flock', '/tmp/lock', 'npm', 'run', 'build:image'], 'npm'],
    [['npm exec vitest run'], 'npm'],
    [['/usr/bin/node', '/usr/lib/node_modules/npm/bin/npx-cli.js', 'seekframe'], 'npm'],
    [
      ['/usr/bin/node', '--import', 'file:///x/tsx/dist/loader.mjs', '--conditions=source', '/r/core/cli/scripts/run-from-source.mjs'],
      'seekframe-cli',
    ],
    [['node', '/r/core/cli/bin/seekframe.js', 'render'], 'seekframe-cli'],
    [['node', '-e', 'console.log(1)'], 'node'],
    [['redis-server', '--port', '0'], 'redis'],
    [['podman', 'build'], 'container'],
    [['sh', '-c', 'echo hi'], 'shell'],
    [['git', 'status'], 'git'],
  ] as const)('%j is %s', (argv, kind) => {
    expect(processKind(argv)).toBe(kind);
  });

  it("a browser's first process is its launch; helpers carry --type=", () => {
    expect(isBrowserMain(['/usr/lib/chromium/chromium-headless-shell', '--headless'])).toBe(true);
    expect(isBrowserMain(['/usr/lib/chromium/chromium-headless-shell --type=zygote --no-sandbox'])).toBe(false);
    expect(isBrowserMain(['/usr/lib/chromium/chromium-headless-shell', '--type=gpu-process'])).toBe(false);
  });
});
