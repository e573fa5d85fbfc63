import type { SandboxFile } from '../sandbox-port.js';
import type { SetupStep } from './run-to-end.js';

/**
 * Everything that differs between a Vercel Sandbox and the local stand-in: the image, the steps
 * that make a fresh sandbox able to render, and how the CLI is called in it. The runner and the
 * snapshot step take a recipe and are otherwise the same code in both places.
 */
export interface SandboxRecipe {
  /** Pinned image (`vercel/sandbox/universal`: Ubuntu + apt), never the SDK default. */
  image: string;
  /** Files to write into a fresh sandbox before the steps (e.g. the Seekframe CLI tarballs). */
  files: () => Promise<SandboxFile[]>;
  steps: SetupStep[];
  /** `seekframe render ...` = `cmd [...args, 'render', ...]`. */
  seekframe: { cmd: string; args: string[] };
  node: string;
  /** Environment of every render (e.g. SEEKFRAME_BROWSER). */
  env: Record<string, string>;
}

/** The sandbox image, pinned: Ubuntu-based, apt, Node 24. The legacy `runtime` values are Amazon Linux (dnf, no ffmpeg or chromium packages). */
export const VERCEL_SANDBOX_IMAGE = 'vercel/sandbox/universal';

/** Chromium for the sandbox: @sparticuz/chromium 147, the same build as the Lambda path (see README). */
export const SANDBOX_CHROMIUM_PACKAGE = '@sparticuz/chromium@147.0.0';

/**
 * Animation libraries compositions load from a CDN (`cdn.jsdelivr.net/npm/gsap@3...`): installed
 * beside the CLI, the renderer serves them locally, so renders do not depend on a CDN.
 */
export const SANDBOX_LIBRARY_PACKAGES = ['gsap@3.15.0', 'animejs@4.5.0'] as const;

/** Where the set-up puts things inside the sandbox (its working folder is /vercel/sandbox). */
export const SANDBOX_PATHS = {
  cli: '/vercel/sandbox/seekframe-cli',
  packages: '/vercel/sandbox/seekframe-cli/packages',
  chromium: '/vercel/sandbox/chromium',
} as const;

/** What the apt step installs: ffmpeg, fonts, and the shared libraries headless Chromium loads. */
export const SANDBOX_APT_PACKAGES = [
  'ffmpeg',
  'fonts-noto-core',
  'fonts-noto-color-emoji',
  'fonts-liberation2',
  'libnss3',
  'libatk1.0-0',
  'libatk-bridge2.0-0',
  'libcups2',
  'libdrm2',
  'libxkbcommon0',
  'libxcomposite1',
  'libxdamage1',
  'libxfixes3',
  'libxrandr2',
  'libgbm1',
  'libpango-1.0-0',
  'libcairo2',
] as const;

export interface CliPackage {
  /** Tarball file name, e.g. `seekframe-cli-0.1.0.tgz` (from `npm pack`). */
  fileName: string;
  content: Uint8Array;
}

/**
 * The Vercel recipe: apt packages, the Seekframe CLI installed from the tarballs of the packages
 * the deployment was built with (`packInstalledCli`, so the sandbox runs the deployed code), Chromium
 * unpacked into a folder that the snapshot keeps (not /tmp).
 */
export function vercelRecipe(packages: () => Promise<CliPackage[]>): SandboxRecipe {
  const chromiumPath = `${SANDBOX_PATHS.chromium}/chromium`;
  const steps: SetupStep[] = [
    { title: 'refresh the apt package lists', cmd: 'apt-get', args: ['update'], sudo: true },
    {
      title: 'install ffmpeg, fonts and Chromium libraries',
      cmd: 'sh',
      // The ALSA library was renamed in Ubuntu 24.04; accept either name.
      args: [
        '-c',
        `DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${SANDBOX_APT_PACKAGES.join(' ')} && (apt-get install -y --no-install-recommends libasound2t64 || apt-get install -y --no-install-recommends libasound2)`,
      ],
      sudo: true,
    },
    {
      title: 'install the Seekframe CLI and Chromium',
      cmd: 'sh',
      args: [
        '-c',
        `cd ${SANDBOX_PATHS.cli} && npm install --no-audit --no-fund --omit=dev ./packages/*.tgz ${SANDBOX_CHROMIUM_PACKAGE} ${SANDBOX_LIBRARY_PACKAGES.join(' ')}`,
      ],
    },
    {
      title: 'unpack Chromium where the snapshot keeps it',
      // @sparticuz/chromium unpacks into os.tmpdir(); pointing TMPDIR at a folder of the sandbox
      // puts the binary and its SwiftShader libraries where the snapshot keeps them.
      cmd: 'sh',
      args: [
        '-c',
        `mkdir -p ${SANDBOX_PATHS.chromium} && TMPDIR=${SANDBOX_PATHS.chromium} node --input-type=module -e "const { default: c } = await import('@sparticuz/chromium'); console.log(await c.executablePath());"`,
      ],
      cwd: SANDBOX_PATHS.cli,
    },
    {
      title: 'check the tools',
      cmd: 'sh',
      args: ['-c', `ffmpeg -version | head -1 && ${chromiumPath} --version && ${SANDBOX_PATHS.cli}/node_modules/.bin/seekframe --version`],
    },
  ];
  return {
    image: VERCEL_SANDBOX_IMAGE,
    async files() {
      return (await packages()).map((pkg) => ({ path: `${SANDBOX_PATHS.packages}/${pkg.fileName}`, content: pkg.content }));
    },
    steps,
    seekframe: { cmd: `${SANDBOX_PATHS.cli}/node_modules/.bin/seekframe`, args: [] },
    node: 'node',
    env: { SEEKFRAME_BROWSER: chromiumPath },
  };
}

/**
 * The local stand-in's recipe: this machine already has ffmpeg, Chromium and the repository's
 * CLI build, so the steps only check them (and fail the same way a broken image would).
 */
export function localRecipe(options: { cliBin: string; env?: Record<string, string> }): SandboxRecipe {
  return {
    image: 'local',
    files: async () => [],
    steps: [
      { title: 'check ffmpeg', cmd: 'ffmpeg', args: ['-hide_banner', '-version'] },
      { title: 'check the Seekframe CLI', cmd: process.execPath, args: [options.cliBin, '--version'] },
    ],
    seekframe: { cmd: process.execPath, args: [options.cliBin] },
    node: process.execPath,
    env: options.env ?? {},
  };
}
