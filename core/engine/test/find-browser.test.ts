import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findBrowser, findCachedHeadlessShell, parseBrowserVersion } from '../src/browser/find-browser.js';
import { launchAndProbe, probeBeginFrame } from '../src/browser/probe-begin-frame.js';
import { resolveBrowserBinary } from '../src/browser/resolve-browser-binary.js';

const temps: string[] = [];
afterAll(async () => Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('findBrowser', () => {
  it('finds the system headless shell, resolves the Debian wrapper and probes beginFrame', async () => {
    const emptyCache = await mkdtemp(path.join(os.tmpdir(), 'sf-cache-'));
    temps.push(emptyCache);
    const env = { ...process.env };
    delete env.SEEKFRAME_BROWSER;
    const info = await findBrowser({ env, cacheDir: emptyCache });
    expect(info.source).toBe('system');
    expect(info.kind).toBe('headless-shell');
    expect(info.path).toBe('/usr/lib/chromium/chromium-headless-shell');
    expect(info.wrapper).toBe('/usr/bin/chromium-headless-shell');
    expect(info.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(info.supportsBeginFrame).toBe(true);
  });

  it('uses SEEKFRAME_BROWSER and resolves the chromium wrapper to the real binary', async () => {
    const info = await findBrowser({ env: { ...process.env, SEEKFRAME_BROWSER: '/usr/bin/chromium' } });
    expect(info.source).toBe('env');
    expect(info.kind).toBe('chromium');
    expect(info.path).toBe('/usr/lib/chromium/chromium');
    // New headless mode in full Chromium has no HeadlessExperimental domain.
    expect(info.supportsBeginFrame).toBe(false);
  });

  it('fails with browser-not-found and the fix when SEEKFRAME_BROWSER is missing', async () => {
    await expect(findBrowser({ env: { SEEKFRAME_BROWSER: '/nope/chrome' } })).rejects.toMatchObject({
      code: 'browser-not-found',
      stage: 'browser',
      message: expect.stringMatching(/\/nope\/chrome.*sudo apt-get install chromium-headless-shell.*SEEKFRAME_BROWSER/s),
    });
  });

  it('prefers a cached headless shell, newest version first', async () => {
    const cache = await mkdtemp(path.join(os.tmpdir(), 'sf-cache-'));
    temps.push(cache);
    for (const version of ['linux-9.0.0.0', 'linux-120.0.1.2']) {
      const dir = path.join(cache, 'seekframe', 'chrome-headless-shell', version, 'chrome-headless-shell-linux64');
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'chrome-headless-shell'), '\x7fELF fake');
      await chmod(path.join(dir, 'chrome-headless-shell'), 0o755);
    }
    expect(await findCachedHeadlessShell(cache)).toBe(
      path.join(cache, 'seekframe/chrome-headless-shell/linux-120.0.1.2/chrome-headless-shell-linux64/chrome-headless-shell'),
    );
    expect(await findCachedHeadlessShell(path.join(cache, 'none'))).toBeNull();
  });
});

describe('helpers', () => {
  it('parses --version output', () => {
    expect(parseBrowserVersion('Chromium 156.0.8078.79 built on Debian GNU/Linux 12')).toBe('156.0.8078.79');
  });
  it('follows a wrapper script that builds the path from variables', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'sf-wrap-'));
    temps.push(folder);
    await mkdir(path.join(folder, 'lib', 'chromium'), { recursive: true });
    const real = path.join(folder, 'lib', 'chromium', 'chromium');
    await writeFile(real, '\x7fELF fake');
    await chmod(real, 0o755);
    const wrapper = path.join(folder, 'chromium');
    await writeFile(wrapper, `#!/bin/sh\nAPPNAME=chromium\nLIBDIR=${folder}/lib/$APPNAME\nexec $LIBDIR/$APPNAME "$@"\n`);
    await chmod(wrapper, 0o755);
    expect(await resolveBrowserBinary(wrapper)).toEqual({ path: real, wrapper });
  });
  it('leaves a real binary alone', async () => {
    expect(await resolveBrowserBinary('/usr/lib/chromium/chromium-headless-shell')).toEqual({
      path: '/usr/lib/chromium/chromium-headless-shell',
    });
  });
  it('caches the probe per path', async () => {
    const first = probeBeginFrame('/usr/lib/chromium/chromium-headless-shell');
    expect(probeBeginFrame('/usr/lib/chromium/chromium-headless-shell')).toBe(first);
    expect(await first).toBe(true);
    expect(await probeBeginFrame('/nope/binary')).toBe(false);
  });
  it('really asks the browser (no cache): the headless shell answers beginFrame and draws HTML into a canvas, full Chromium does neither', async () => {
    expect(await launchAndProbe('/usr/lib/chromium/chromium-headless-shell', 'headless-shell')).toEqual({ beginFrame: true, canvas: true });
    expect(await launchAndProbe('/usr/lib/chromium/chromium', 'chromium')).toEqual({ beginFrame: false, canvas: false });
  });
});
