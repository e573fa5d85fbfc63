import { findBrowser, findFfmpeg, type BrowserInfo, type FfmpegInfo } from '@seekframe/engine';

/** Where a handler's browser and ffmpeg come from; every chunk of a render must get the same. */
export interface RenderRuntime {
  browser(): Promise<BrowserInfo>;
  ffmpeg(): Promise<FfmpegInfo>;
}

/**
 * The binaries of the machine a step runs on: on Lambda, the function's container image,
 * which is the `seekframe render --docker` image (infra/lambda/Dockerfile starts FROM it), so
 * Lambda renders with the same Debian chromium-headless-shell, ffmpeg and fonts as --docker and
 * the Cloudflare container (SEEKFRAME_BROWSER names the headless shell there). A fleet worker, the
 * tests and the benchmarks: this machine's (the fleet's container image is the same image). Each is looked up once per instance.
 */
export function systemRuntime(options: { env?: NodeJS.ProcessEnv } = {}): RenderRuntime {
  const env = options.env ? { env: options.env } : {};
  let browser: Promise<BrowserInfo> | undefined;
  let ffmpeg: Promise<FfmpegInfo> | undefined;
  return {
    browser: () => (browser ??= findBrowser(env).catch((error: unknown) => ((browser = undefined), Promise.reject(error)))),
    ffmpeg: () => (ffmpeg ??= findFfmpeg(env).catch((error: unknown) => ((ffmpeg = undefined), Promise.reject(error)))),
  };
}
