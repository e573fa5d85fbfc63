/**
 * "The preview is the render", measured: a preview page is opened in headless Chromium that can
 * reach nothing but loopback (`--proxy-server=127.0.0.1:9`; loopback bypasses a proxy, every other
 * host meets a closed port, as a viewer behind a firewall or offline would), its
 * `<seekframe-player>` is seeked to each time, the iframe's box is screenshotted and compared with
 * the rendered frame at that time: PSNR at 640x360 (both pictures scaled to it). Shared by the
 * preview tests of `seekframe preview` and of every deploy template
 * (`@seekframe/render-api/contract-suite`).
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import puppeteer from 'puppeteer-core';
import { browserArgs, findBrowser } from '@seekframe/engine';
import { REPO_ROOT } from './repo-root.js';

const run = promisify(execFile);

/** The comparison size of the table; both pictures are scaled to it. */
export const COMPARE_WIDTH = 640;
export const COMPARE_HEIGHT = 360;
/** The bar every preview must clear at every time. */
export const MIN_PSNR_DB = 33;

export interface ParityComposition {
  /** Name in reports (`ui-3d-reveal`, `parity`). */
  name: string;
  dir: string;
  /** Times compared, seconds; every one a whole frame at `fps`. */
  times: readonly number[];
  /** Render fps of the reference frames (small: only the frames at `times` are used). */
  fps: number;
}

export { REPO_ROOT };

/** The repository's bundled composition (in a checkout) at 1, 3 and 5 s. */
export const BUNDLED: ParityComposition = {
  name: 'ui-3d-reveal',
  dir: path.join(REPO_ROOT, 'compositions/ui-3d-reveal'),
  times: [1, 3, 5],
  fps: 1,
};
/** A sub-composition (a `<template>` file with GSAP from a CDN URL), a Google Fonts family and a CSS animation. */
export const PARITY: ParityComposition = {
  name: 'parity',
  dir: fileURLToPath(new URL('../../fixtures/preview-parity', import.meta.url)),
  times: [1.5, 2.5, 3.5],
  fps: 2,
};

export interface CapturedPreview {
  /** PNG of the player's picture per time, in `times` order. */
  frames: string[];
  /** Requests the page made that left loopback (refused by the closed proxy). */
  offline: string[];
  close(): Promise<void>;
}

/**
 * Opens `pageUrl` (a page with one `<seekframe-player>`), waits for the player to be ready, and for
 * each time seeks it (`player.seek(t)`, the renderer's own seek) and screenshots the iframe's box.
 */
export async function capturePreview(pageUrl: string, times: readonly number[]): Promise<CapturedPreview> {
  const found = await findBrowser();
  const profile = await mkdtemp(path.join(os.tmpdir(), 'seekframe-parity-profile-'));
  const out = await mkdtemp(path.join(os.tmpdir(), 'seekframe-parity-shots-'));
  const browser = await puppeteer.launch({
    executablePath: found.path,
    headless: found.kind === 'headless-shell' ? 'shell' : true,
    userDataDir: profile,
    args: [...browserArgs({ mode: 'screenshot', width: 1280, height: 900 }), '--proxy-server=127.0.0.1:9'],
    defaultViewport: { width: 1280, height: 900 },
  });
  const close = async (): Promise<void> => {
    await browser.close().catch(() => undefined);
    await rm(profile, { recursive: true, force: true });
  };
  const offline: string[] = [];
  try {
    const page = await browser.newPage();
    page.on('requestfailed', (request) => {
      const url = request.url();
      if (!/^https?:\/\/(127\.0\.0\.1|\[::1\]|localhost)[:/]/.test(url) && !url.startsWith('data:')) offline.push(url);
    });
    await page.goto(pageUrl, { waitUntil: 'load' });
    await page.waitForFunction(
      () => {
        const player = document.querySelector('seekframe-player') as (HTMLElement & { duration: number }) | null;
        const iframe = player?.shadowRoot?.querySelector('iframe');
        return Boolean(player && player.duration > 0 && iframe && !iframe.classList.contains('loading'));
      },
      { timeout: 60_000, polling: 100 },
    );
    // The controls bar (template pages) is not part of the picture.
    await page.evaluate(() => document.querySelector('seekframe-player')?.removeAttribute('controls'));
    const frames: string[] = [];
    for (const [index, t] of times.entries()) {
      await page.evaluate(async (time) => {
        const player = document.querySelector('seekframe-player') as HTMLElement & { seek(t: number): Promise<void> };
        await player.seek(time);
      }, t);
      const box = await page.evaluate(() => {
        const iframe = document.querySelector('seekframe-player')?.shadowRoot?.querySelector('iframe');
        const rect = iframe!.getBoundingClientRect();
        return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      });
      const file = path.join(out, `preview-${index}.png`);
      await page.screenshot({ path: file, clip: box });
      frames.push(file);
    }
    return {
      frames,
      offline,
      close: async () => {
        await close();
        await rm(out, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await close();
    await rm(out, { recursive: true, force: true });
    throw error;
  }
}

/** PSNR in dB of `candidate` against `reference`, both scaled to 640x360 (ffmpeg's psnr filter). */
export async function psnr640(reference: string, candidate: string): Promise<number> {
  const scale = `scale=${COMPARE_WIDTH}:${COMPARE_HEIGHT}:flags=bicubic,format=rgb24`;
  const { stderr } = await run('ffmpeg', [
    '-hide_banner',
    '-nostdin',
    '-i',
    candidate,
    '-i',
    reference,
    '-lavfi',
    `[0:v]${scale}[a];[1:v]${scale}[b];[a][b]psnr`,
    '-f',
    'null',
    '-',
  ]);
  const match = /PSNR .*average:(inf|[\d.]+)/.exec(stderr);
  if (!match) throw new Error(`ffmpeg gave no PSNR for ${candidate} against ${reference}:\n${stderr}`);
  return match[1] === 'inf' ? Infinity : Number(match[1]);
}

/**
 * One row per (preview, composition, time), appended as JSON lines to SEEKFRAME_PSNR_REPORT when
 * set: `node scripts/preview-psnr-table.mjs <file>` prints the table.
 */
export async function reportPsnr(preview: string, composition: ParityComposition, values: readonly number[]): Promise<void> {
  const file = process.env.SEEKFRAME_PSNR_REPORT;
  if (!file) return;
  const lines = composition.times.map((t, i) => JSON.stringify({ preview, composition: composition.name, time: t, psnr: values[i] }));
  await appendFile(file, lines.join('\n') + '\n');
}

/** Captures `pageUrl` at the composition's times and compares each picture with the render's frame. */
export async function measurePreview(
  preview: string,
  pageUrl: string,
  composition: ParityComposition,
  reference: readonly string[],
): Promise<{ psnr: number[]; offline: string[] }> {
  const captured = await capturePreview(pageUrl, composition.times);
  try {
    const values: number[] = [];
    for (const [i, frame] of captured.frames.entries()) values.push(await psnr640(reference[i]!, frame));
    await reportPsnr(preview, composition, values);
    return { psnr: values, offline: captured.offline };
  } finally {
    await captured.close();
  }
}
