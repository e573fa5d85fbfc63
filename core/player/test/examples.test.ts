import { execFile } from 'node:child_process';
import { cp, copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { openPage } from './support/player-browser.js';
import { usePlayerSite } from './support/player-site.js';

// The examples the manual's "The player in your own app" page shows (core/player/examples), served
// the way an app serves them: a plain page with the bundle copied beside it, an esbuild bundle that
// imports the package, and a React app. Each opens in Chromium and plays its composition.

const run = promisify(execFile);
const EXAMPLES = fileURLToPath(new URL('../examples/', import.meta.url));

const site = usePlayerSite('seekframe-player-examples-', async (dir) => {
  const bundle = path.join(dir, 'seekframe-player.js');
  for (const name of ['plain', 'bundler', 'react']) {
    await cp(path.join(EXAMPLES, name), path.join(dir, name), { recursive: true });
    await cp(path.join(EXAMPLES, 'composition'), path.join(dir, name, 'composition'), { recursive: true });
  }
  await copyFile(bundle, path.join(dir, 'plain', 'seekframe-player.js'));
  // The package as a bundler finds it, pointed at the bundle this run built.
  const options = { bundle: true, format: 'esm' as const, alias: { '@seekframe/player': bundle }, logLevel: 'silent' as const };
  await mkdir(path.join(dir, 'bundler', 'dist'));
  await build({ ...options, entryPoints: [path.join(dir, 'bundler', 'main.js')], outfile: path.join(dir, 'bundler', 'dist', 'main.js') });
  await build({
    ...options,
    entryPoints: [path.join(dir, 'react', 'main.tsx')],
    outfile: path.join(dir, 'react', 'dist', 'main.js'),
    jsx: 'automatic',
    // React resolves from this checkout's node_modules, as an app's own install would give it.
    nodePaths: [fileURLToPath(new URL('../../../node_modules', import.meta.url))],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
});

interface Shown {
  title: string;
  time: number;
  duration: number;
}

/** Waits for the player to be ready, seeks it, and reads what its composition shows. */
async function playAndRead(url: string, errors: string[]): Promise<Shown> {
  const page = await openPage(site.session, url, 800, 600);
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  try {
    await page.waitForFunction(
      () => {
        const player = document.querySelector('seekframe-player') as (HTMLElement & { duration: number }) | null;
        return Boolean(player && player.duration > 0);
      },
      { timeout: 60_000 },
    );
    return await page.evaluate(async () => {
      const player = document.querySelector('seekframe-player') as HTMLElement & {
        seek(t: number): Promise<void>;
        currentTime: number;
        duration: number;
        contentWindow: Window;
      };
      await player.seek(1.5);
      return {
        title: player.contentWindow.document.getElementById('title')?.textContent ?? '',
        time: player.currentTime,
        duration: player.duration,
      };
    });
  } finally {
    await page.close();
  }
}

describe('the player examples of the manual', () => {
  it('the React component type-checks against the package types (tsc -p core/player/examples)', async () => {
    const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
    const result = await run(process.execPath, [tsc, '-p', EXAMPLES], { encoding: 'utf8' }).catch((error: { stdout?: string }) => error);
    expect('stdout' in result ? result.stdout : '').toBe('');
  });

  it.each([
    ['plain', 'Hello from a plain page'],
    ['bundler', 'Hello from a bundle'],
    ['react', 'Hello from React'],
  ])('%s: loads, applies its variables and seeks', async (name, title) => {
    const errors: string[] = [];
    const shown = await playAndRead(`${site.statics.origin}/${name}/index.html`, errors);
    expect(shown).toEqual({ title, time: 1.5, duration: 3 });
    expect(errors).toEqual([]);
  });
});
