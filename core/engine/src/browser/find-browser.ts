import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import type { BrowserInfo } from './browser-info.js';
import { findOnPath, isExecutableFile } from '../system/find-executable.js';
import { installCommand } from '../system/install-hint.js';
import { probeBrowser } from './probe-begin-frame.js';
import { resolveBrowserBinary } from './resolve-browser-binary.js';
import { runProcess } from '../system/run-process.js';

const SYSTEM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];
const PATH_NAMES = ['chrome-headless-shell', 'chromium-headless-shell', 'chromium', 'chromium-browser', 'google-chrome'];

export interface FindBrowserOptions {
  env?: NodeJS.ProcessEnv;
  /** Folder holding downloaded headless shells (default: $XDG_CACHE_HOME or ~/.cache). */
  cacheDir?: string;
}

/**
 * Finds the browser to render with: SEEKFRAME_BROWSER, then a cached chrome-headless-shell, then
 * Debian's chromium-headless-shell / chromium (also on PATH). Never downloads anything.
 */
export async function findBrowser(options: FindBrowserOptions = {}): Promise<BrowserInfo> {
  const env = options.env ?? process.env;
  const fromEnv = env.SEEKFRAME_BROWSER;
  if (fromEnv) {
    if (!(await isExecutableFile(fromEnv))) {
      throw notFound(`SEEKFRAME_BROWSER points to ${fromEnv}, which is not an executable file.`);
    }
    return describeBrowser(fromEnv, 'env');
  }
  const cached = await findCachedHeadlessShell(options.cacheDir ?? defaultCacheDir(env));
  if (cached) return describeBrowser(cached, 'cache');
  for (const candidate of SYSTEM_CANDIDATES) {
    if (await isExecutableFile(candidate)) return describeBrowser(candidate, 'system');
  }
  for (const name of PATH_NAMES) {
    const onPath = await findOnPath(name, env.PATH ?? '');
    if (onPath) return describeBrowser(onPath, 'system');
  }
  throw notFound('No Chromium was found.');
}

function notFound(first: string): SeekframeError {
  return new SeekframeError(
    'browser-not-found',
    `${first} Seekframe renders with Chromium from your system (it never downloads one itself): install it with ` +
      `\`${installCommand('chromium')}\`, or set SEEKFRAME_BROWSER to the path of a Chromium or chrome-headless-shell binary.`,
    { stage: 'browser', details: { install: installCommand('chromium') } },
  );
}

function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  return env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
}

/**
 * Looks for `chrome-headless-shell` below <cache>/seekframe/chrome-headless-shell and
 * <cache>/puppeteer/chrome-headless-shell (puppeteer's layout:
 * linux-<version>/chrome-headless-shell-linux64/chrome-headless-shell). Newest version first.
 */
export async function findCachedHeadlessShell(cacheDir: string): Promise<string | null> {
  for (const root of ['seekframe', 'puppeteer'].map((tool) => path.join(cacheDir, tool, 'chrome-headless-shell'))) {
    const versions = await listDirs(root);
    versions.sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    for (const version of versions) {
      const versionDir = path.join(root, version);
      const direct = path.join(versionDir, 'chrome-headless-shell');
      if (await isExecutableFile(direct)) return direct;
      for (const platformDir of await listDirs(versionDir)) {
        const nested = path.join(versionDir, platformDir, 'chrome-headless-shell');
        if (await isExecutableFile(nested)) return nested;
      }
    }
  }
  return null;
}

async function listDirs(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

async function describeBrowser(found: string, source: BrowserInfo['source']): Promise<BrowserInfo> {
  const resolved = await resolveBrowserBinary(found);
  const kind: BrowserInfo['kind'] = /headless[-_]shell/.test(path.basename(resolved.path)) ? 'headless-shell' : 'chromium';
  const version = await browserVersion(resolved.path);
  const probe = await probeBrowser(resolved.path, kind);
  return {
    path: resolved.path,
    source,
    kind,
    version,
    supportsBeginFrame: probe.beginFrame,
    supportsCanvasCapture: probe.canvas,
    ...(resolved.wrapper ? { wrapper: resolved.wrapper } : {}),
  };
}

async function browserVersion(file: string): Promise<string> {
  let output: string;
  try {
    const result = await runProcess(file, ['--version'], { timeoutMs: 15_000 });
    output = `${result.stdout}\n${result.stderr}`;
    if (result.code !== 0) throw new Error(output.trim() || `exit code ${result.code}`);
  } catch (error) {
    throw new SeekframeError(
      'browser-not-found',
      `${file} does not run (\`--version\` failed: ${error instanceof Error ? error.message : String(error)}). ` +
        `Reinstall it (\`${installCommand('chromium')}\`) or set SEEKFRAME_BROWSER to a working Chromium.`,
      { stage: 'browser', details: { path: file }, cause: error },
    );
  }
  return parseBrowserVersion(output);
}

/** `Chromium 156.0.8078.79 built on Debian` -> `156.0.8078.79`; unknown text is returned trimmed. */
export function parseBrowserVersion(output: string): string {
  return /(\d+\.\d+\.\d+\.\d+)/.exec(output)?.[1] ?? output.trim();
}
