import { execFile } from 'node:child_process';
import { access, chmod, copyFile, mkdir, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { findBrowser, findFfmpeg, probeBeginFrame, type BrowserInfo, type FfmpegInfo } from '@seekframe/engine';
import { lambdaError } from '../errors.js';

const run = promisify(execFile);

/** Where a handler's browser and ffmpeg come from; every chunk of a render must get the same. */
export interface RenderRuntime {
  browser(): Promise<BrowserInfo>;
  ffmpeg(): Promise<FfmpegInfo>;
}

/**
 * `@sparticuz/chromium`'s arguments that we drop: the engine chooses the headless mode itself,
 * and web security stays on (a rendered page is untrusted; the network sandbox is the second
 * fence, not the only one).
 */
const DROPPED_SPARTICUZ_ARGS = [/^--headless/, /^--disable-web-security$/, /^--allow-running-insecure-content$/];

/**
 * The Lambda runtime: Chromium from @sparticuz/chromium (inflated into /tmp on first use),
 * treated as a headless shell so the engine adds the begin-frame flags, and the ffmpeg/ffprobe
 * binaries shipped inside @ffmpeg-installer/linux-x64 and @ffprobe-installer/linux-x64.
 */
export function lambdaRuntime(options: { env?: NodeJS.ProcessEnv } = {}): RenderRuntime {
  const env = options.env ?? process.env;
  let browser: Promise<BrowserInfo> | undefined;
  let ffmpeg: Promise<FfmpegInfo> | undefined;
  return {
    browser: () => (browser ??= sparticuzBrowser().catch((error: unknown) => ((browser = undefined), Promise.reject(error)))),
    ffmpeg: () => (ffmpeg ??= bundledFfmpeg(env).catch((error: unknown) => ((ffmpeg = undefined), Promise.reject(error)))),
  };
}

/** This machine's browser and ffmpeg (tests, the local runner and the simulated benchmark). */
export function systemRuntime(options: { env?: NodeJS.ProcessEnv } = {}): RenderRuntime {
  return { browser: () => findBrowser(options.env ? { env: options.env } : {}), ffmpeg: () => findFfmpeg(options.env ? { env: options.env } : {}) };
}

export async function sparticuzBrowser(): Promise<BrowserInfo> {
  let executable: string;
  let args: string[];
  try {
    const chromium = (await import('@sparticuz/chromium')).default;
    executable = await chromium.executablePath();
    args = chromium.args;
  } catch (error) {
    // A half-inflated /tmp on a warm instance fails the same way again: never retried.
    throw lambdaError(
      'browser-binary-unavailable',
      `@sparticuz/chromium could not provide its Chromium binary: ${error instanceof Error ? error.message : String(error)}. ` +
        'Check that the function bundle installs @sparticuz/chromium (sst.config.ts nodejs.install) and that /tmp has room.',
      { stage: 'browser', cause: error },
    );
  }
  const version = await binaryVersion(executable);
  const supportsBeginFrame = await probeBeginFrame(executable, 'headless-shell');
  return {
    path: executable,
    source: 'env',
    kind: 'headless-shell',
    version,
    supportsBeginFrame,
    extraArgs: args.filter((arg) => !DROPPED_SPARTICUZ_ARGS.some((pattern) => pattern.test(arg))),
  };
}

async function binaryVersion(executable: string): Promise<string> {
  try {
    const { stdout } = await run(executable, ['--version'], { timeout: 20_000 });
    return /(\d+\.\d+\.\d+\.\d+)/.exec(stdout)?.[1] ?? stdout.trim();
  } catch (error) {
    throw lambdaError('browser-binary-unavailable', `${executable} --version failed: ${error instanceof Error ? error.message : String(error)}.`, { stage: 'browser', cause: error });
  }
}

/** ffmpeg and ffprobe from their npm packages (SEEKFRAME_FFMPEG / SEEKFRAME_FFPROBE win). */
export async function bundledFfmpeg(env: NodeJS.ProcessEnv = process.env): Promise<FfmpegInfo> {
  const ffmpeg = env.SEEKFRAME_FFMPEG ?? (await packagedBinary('@ffmpeg-installer/linux-x64', 'ffmpeg'));
  const ffprobe = env.SEEKFRAME_FFPROBE ?? (await packagedBinary('@ffprobe-installer/linux-x64', 'ffprobe'));
  return findFfmpeg({ env: { ...env, SEEKFRAME_FFMPEG: ffmpeg, SEEKFRAME_FFPROBE: ffprobe } });
}

async function packagedBinary(pkg: string, name: string): Promise<string> {
  let file: string;
  try {
    file = path.join(path.dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), name);
  } catch (error) {
    throw lambdaError('browser-binary-unavailable', `${pkg} is not installed, so there is no ${name} binary. Install it (an optional dependency of @seekframe/aws-lambda, linux-x64 only) or set SEEKFRAME_${name.toUpperCase()}.`, {
      stage: 'encode',
      cause: error,
    });
  }
  try {
    await access(file, constants.X_OK);
    return file;
  } catch {
    // Lambda unpacks the bundle read-only and the packages mark the binary executable for its
    // owner only (their postinstall chmod may not have run): run a copy from /tmp instead.
    const dir = path.join(os.tmpdir(), 'seekframe-bin');
    await mkdir(dir, { recursive: true });
    const copy = path.join(dir, name);
    await copyFile(file, copy);
    await chmod(copy, 0o755);
    return copy;
  }
}
