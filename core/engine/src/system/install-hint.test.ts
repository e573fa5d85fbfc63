import { describe, expect, it } from 'vitest';
import { hostSystem, installCommand } from './install-hint.js';

describe('installCommand', () => {
  it('names the package manager command of each system', () => {
    const debian = { platform: 'linux' as const, distro: ['debian'] };
    expect(installCommand('chromium', debian)).toBe('sudo apt-get install chromium-headless-shell');
    expect(installCommand('ffmpeg', debian)).toBe('sudo apt-get install ffmpeg');
    expect(installCommand('ffmpeg', { platform: 'darwin', distro: [] })).toBe('brew install ffmpeg');
    expect(installCommand('ffmpeg', { platform: 'linux', distro: ['fedora'] })).toBe('sudo dnf install ffmpeg-free');
    expect(installCommand('chromium', { platform: 'linux', distro: ['arch'] })).toBe('sudo pacman -S chromium');
  });

  it("gives Chrome's headless shell where the system has no usable Chromium package (Ubuntu's is a snap, macOS)", () => {
    const download = 'npx @puppeteer/browsers install chrome-headless-shell@stable --path ~/.cache/puppeteer';
    expect(installCommand('chromium', { platform: 'linux', distro: ['ubuntu', 'debian'] })).toBe(download);
    expect(installCommand('chromium', { platform: 'darwin', distro: [] })).toBe(download);
  });

  it('reads this machine (Debian here)', () => {
    expect(hostSystem()).toMatchObject({ platform: 'linux', distro: expect.arrayContaining(['debian']) });
  });
});
