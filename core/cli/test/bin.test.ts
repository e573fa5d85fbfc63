import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cliRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(cliRoot, 'bin/seekframe.js');

// The published entry point runs the built dist/ (scripts/test.sh builds before the suite).
describe('bin/seekframe.js', () => {
  it('is built', () => {
    expect(
      existsSync(path.join(cliRoot, 'dist/main.js')),
      'core/cli/dist is missing: run `npx turbo run build` (scripts/test.sh does)',
    ).toBe(true);
  });

  it('prints the version and the command list', async () => {
    const version = await run(process.execPath, [bin, '--version']);
    const { version: published } = JSON.parse(readFileSync(path.join(cliRoot, 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout.trim()).toBe(published);
    const help = await run(process.execPath, [bin, '--help'], { env: { PATH: process.env.PATH, NO_COLOR: '1' } });
    expect(help.stdout).toMatch(/^\s+lint \[options\] \[path\]/m);
  });

  it('sets the process exit code from main(): 1 for lint errors, 2 for usage errors', async () => {
    const broken = await run(process.execPath, [bin, 'lint', 'test/fixtures/broken', '--json'], { cwd: cliRoot }).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect('code' in broken ? broken.code : 0).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({ errors: 3 });
    const usage = await run(process.execPath, [bin, 'lint', '--bogus'], { cwd: cliRoot }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in usage ? usage.code : 0).toBe(2);
  });
});
