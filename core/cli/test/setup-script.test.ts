import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// The missing-package path, without uninstalling anything: point the package list at a name no
// system has. As root we drop to `nobody`, the situation of a developer without sudo; it stops
// at the apt step, before npm or the build run.
describe('scripts/setup.sh without root', () => {
  it('names the missing packages and the exact apt-get command, and exits 1', () => {
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? 'setpriv' : 'bash';
    const args = asRoot ? ['--reuid=nobody', '--regid=nogroup', '--clear-groups', 'bash', 'scripts/setup.sh'] : ['scripts/setup.sh'];
    const run = spawnSync(command, args, {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, SEEKFRAME_APT_PACKAGES: 'ffmpeg seekframe-test-missing-pkg', SEEKFRAME_NO_SUDO: '1' },
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'seekframe setup: missing system packages: seekframe-test-missing-pkg\n' +
        'Install them as root (no passwordless sudo here), then run this script again:\n' +
        '  sudo apt-get update && sudo apt-get install -y --no-install-recommends seekframe-test-missing-pkg\n',
    );
  });
});
