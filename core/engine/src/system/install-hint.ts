import { readFileSync } from 'node:fs';

/** The system tools a render needs and no npm package installs for us. */
export type SystemTool = 'chromium' | 'ffmpeg';

export interface HostSystem {
  /** `process.platform` */
  platform: NodeJS.Platform;
  /** ID and ID_LIKE of /etc/os-release, lower case (e.g. ['ubuntu', 'debian']); [] elsewhere. */
  distro: string[];
}

/** This machine, as far as the hint cares. */
export function hostSystem(): HostSystem {
  let distro: string[] = [];
  if (process.platform === 'linux') {
    try {
      const text = readFileSync('/etc/os-release', 'utf8');
      const field = (name: string): string[] =>
        (new RegExp(`^${name}="?([^"\\n]*)"?$`, 'm').exec(text)?.[1] ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      distro = [...field('ID'), ...field('ID_LIKE')];
    } catch {
      distro = [];
    }
  }
  return { platform: process.platform, distro };
}

// Chrome's own headless shell, from Google's Chrome for Testing builds, into the cache folder
// findBrowser searches (~/.cache/puppeteer): for systems whose package manager has no Chromium
// that runs headless without a desktop (Ubuntu's is a snap, macOS and Windows have none).
const HEADLESS_SHELL_DOWNLOAD = 'npx @puppeteer/browsers install chrome-headless-shell@stable --path ~/.cache/puppeteer';

/**
 * The command that installs `tool` on this kind of system. Seekframe never downloads either at
 * install time (no postinstall step): a user runs this once.
 */
export function installCommand(tool: SystemTool, system: HostSystem = hostSystem()): string {
  const is = (...ids: string[]): boolean => ids.some((id) => system.distro.includes(id));
  if (system.platform === 'darwin') return tool === 'ffmpeg' ? 'brew install ffmpeg' : HEADLESS_SHELL_DOWNLOAD;
  if (system.platform === 'win32') return tool === 'ffmpeg' ? 'winget install Gyan.FFmpeg' : HEADLESS_SHELL_DOWNLOAD;
  if (system.platform !== 'linux') return tool === 'ffmpeg' ? 'install ffmpeg with your package manager' : HEADLESS_SHELL_DOWNLOAD;
  // Ubuntu before Debian: Ubuntu says ID_LIKE=debian, but its chromium package is a snap stub.
  if (is('ubuntu')) return tool === 'ffmpeg' ? 'sudo apt-get install ffmpeg' : HEADLESS_SHELL_DOWNLOAD;
  if (is('debian')) return tool === 'ffmpeg' ? 'sudo apt-get install ffmpeg' : 'sudo apt-get install chromium-headless-shell';
  if (is('fedora', 'rhel', 'centos')) return tool === 'ffmpeg' ? 'sudo dnf install ffmpeg-free' : 'sudo dnf install chromium-headless';
  if (is('arch')) return tool === 'ffmpeg' ? 'sudo pacman -S ffmpeg' : 'sudo pacman -S chromium';
  if (is('alpine')) return tool === 'ffmpeg' ? 'sudo apk add ffmpeg' : 'sudo apk add chromium';
  return tool === 'ffmpeg' ? 'install ffmpeg with your package manager' : HEADLESS_SHELL_DOWNLOAD;
}
