import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { MediaClip } from '../src/runtime-types.js';
import { ffmpeg, ffprobeDuration } from './support/ffmpeg.js';
import { openReady, startRuntimeFixture, type RuntimeFixture } from './support/runtime-fixture.js';

let fx: RuntimeFixture;
let dir: string;
let videoSeconds: number;

const PAGE = `<!doctype html><html data-composition-id="main" data-width="160" data-height="90" data-duration="4">
<head><style>body{margin:0;background:#000}</style></head><body>
<video id="v" src="/media/clip.webm" data-start="0.5" data-media-start="0.5" data-has-audio
  style="position:absolute;left:20px;top:10px;width:64px;height:36px;transform:translateX(10px) scale(1.25)"></video>
<audio id="a" src="/media/tone.wav" data-start="v + 0.25" data-volume="0.5"></audio>
<audio id="fixed" src="/media/tone.wav" data-start="0" data-duration="0.3"></audio>
<div data-composition-id="sub" data-composition-src="/sub.html" data-start="1" data-duration="0.5" style="position:absolute;left:0;top:60px;width:10px;height:10px"></div>
</body></html>`;

const SUB = `<!doctype html><html data-composition-id="inner" data-width="10" data-height="10" data-duration="2"><body>
<audio src="/media/tone.wav" data-start="0.25"></audio></body></html>`;

const FRAMES = `<!doctype html><html data-composition-id="frames" data-width="160" data-height="90" data-duration="4">
<head><style>body{margin:0;background:#000}</style></head><body>
<video id="v1" src="/media/clip.webm" data-start="0.5"
  style="position:absolute;left:20px;top:10px;width:64px;height:36px;transform:translateX(10px) scale(1.25)"></video>
<div style="position:relative;left:100px;top:50px;width:40px"><video id="v2" src="/media/clip.webm" data-start="0" data-duration="1"
  data-media-start="0.2" style="width:40px;height:30px;object-fit:cover"></video></div>
</body></html>`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-media-'));
  await mkdir(path.join(dir, 'frames'));
  const video = path.join(dir, 'clip.webm');
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=red:s=32x18:r=10:d=1.5', '-c:v', 'libvpx', '-b:v', '200k', video]);
  await ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-ac', '1', '-ar', '8000', path.join(dir, 'tone.wav')]);
  // The engine extracts frames like this; the hue shift makes them green so the test can tell
  // the overlay from the red video underneath.
  await ffmpeg(['-i', video, '-vf', 'fps=10,hue=h=120', '-frames:v', '5', path.join(dir, 'frames', 'frame_%06d.png')]);
  videoSeconds = await ffprobeDuration(video);
  fx = await startRuntimeFixture();
  const r = fx.server.routes;
  r.set('/media/clip.webm', { file: video });
  r.set('/media/tone.wav', { file: path.join(dir, 'tone.wav') });
  for (let i = 1; i <= 5; i++) r.set(`/frames/frame_00000${i}.png`, { file: path.join(dir, 'frames', `frame_00000${i}.png`) });
  r.set('/media.html', PAGE);
  r.set('/sub.html', SUB);
  r.set('/frames.html', FRAMES);
  // no size on the host: it takes the child's data-width/height
  r.set(
    '/frames-parent.html',
    `<!doctype html><html data-duration="4"><body style="margin:0">
<div data-composition-id="clip-scene" data-composition-src="frames.html" data-start="1" data-duration="3"></div></body></html>`,
  );
});

afterAll(async () => {
  await fx?.close();
  await rm(dir, { recursive: true, force: true });
});

const open = (path: string): Promise<Page> => openReady(fx, path);

describe('media', () => {
  it('lists media clips with natural durations, trims, ids and sub-composition offsets', async () => {
    const page = await open('/media.html');
    const clips = await page.evaluate(() => window.__seekframe!.mediaClips());
    const u = fx.server.url;
    const byStart = (a: MediaClip, b: MediaClip): number => a.start - b.start || a.duration - b.duration;
    const expected: MediaClip[] = [
      { kind: 'audio', src: `${u}/media/tone.wav`, start: 0, duration: 0.3, mediaStart: 0, hasAudio: true, volume: 1 },
      // natural 1.5 s minus 0.5 s trimmed
      { kind: 'video', src: `${u}/media/clip.webm`, start: 0.5, duration: videoSeconds - 0.5, mediaStart: 0.5, hasAudio: true, volume: 1 },
      // inside the sub-composition: 1 (host) + 0.25, cut at the host's end (1.5)
      { kind: 'audio', src: `${u}/media/tone.wav`, start: 1.25, duration: 0.25, mediaStart: 0, hasAudio: true, volume: 1 },
      {
        kind: 'audio',
        src: `${u}/media/tone.wav`,
        start: 0.5 + videoSeconds - 0.5 + 0.25,
        duration: 1,
        mediaStart: 0,
        hasAudio: true,
        volume: 0.5,
      },
    ];
    expect(clips.length).toBe(4);
    const sorted = [...clips].sort(byStart);
    sorted.forEach((clip, i) => {
      const want = expected[i]!;
      expect({ ...clip, start: 0, duration: 0 }).toEqual({ ...want, start: 0, duration: 0 });
      expect(clip.start).toBeCloseTo(want.start, 2);
      expect(clip.duration).toBeCloseTo(want.duration, 2);
    });
    // render mode mutes media in the page; the engine mixes audio itself
    expect(await page.evaluate(() => [...document.querySelectorAll('audio,video')].every((m) => (m as HTMLMediaElement).muted))).toBe(true);
    await page.close();
  });

  it('seeks <video> through currentTime in preview mode', async () => {
    const page = await open('/media.html?mode=preview');
    await page.evaluate(() => window.__seekframe!.seek(1.2));
    const state = await page.evaluate(() => {
      const v = document.getElementById('v') as HTMLVideoElement;
      return { time: v.currentTime, paused: v.paused, muted: v.muted, ready: v.readyState >= 2 };
    });
    expect(state.time).toBeCloseTo(1.2, 2); // 1.2 - 0.5 start + 0.5 media-start
    expect(state).toMatchObject({ paused: true, muted: false, ready: true });
    await page.close();
  });

  it('ignores setPlayback in render mode: media stay paused and muted while seeking', async () => {
    const page = await open('/media.html');
    const state = await page.evaluate(async () => {
      window.__seekframe!.setPlayback({ playing: true, muted: false });
      await window.__seekframe!.seek(1.2);
      return [...document.querySelectorAll('audio,video')].map((m) => ({
        paused: (m as HTMLMediaElement).paused,
        muted: (m as HTMLMediaElement).muted,
      }));
    });
    expect(state.length).toBe(3); // the sub-composition's <audio> is in its own frame
    expect(state.every((m) => m.paused && m.muted)).toBe(true);
    await page.close();
  });

  it('covers a video with its pre-extracted frames after useVideoFrames', async () => {
    const page = await open('/frames.html');
    const base = fx.server.url;
    await page.evaluate(
      (s, b) => window.__seekframe!.useVideoFrames({ [s]: { urlPattern: `${b}/frames/frame_%06d.png`, fps: 10, frameCount: 5 } }),
      `${base}/media/clip.webm`,
      base,
    );
    const read = (id: string): Promise<{ src: string; decoded: boolean; sameBox: boolean; video: string; img: string }> =>
      page.evaluate((vid) => {
        const v = document.getElementById(vid)!;
        const img = v.nextElementSibling as HTMLImageElement;
        const a = v.getBoundingClientRect();
        const b = img.getBoundingClientRect();
        const sameBox = (['left', 'top', 'width', 'height'] as const).every((k) => Math.abs(a[k] - b[k]) < 0.01);
        return {
          src: img.src,
          decoded: img.complete && img.naturalWidth === 32,
          sameBox,
          video: getComputedStyle(v).visibility,
          img: getComputedStyle(img).visibility,
        };
      }, id);
    const seek = (t: number): Promise<void> => page.evaluate((time) => window.__seekframe!.seek(time), t);
    await seek(0.75); // v1: (0.75 - 0.5) * 10 = index 2 -> 1-based file 3
    expect(await read('v1')).toEqual({
      src: `${base}/frames/frame_000003.png`,
      decoded: true,
      sameBox: true,
      video: 'hidden',
      img: 'visible',
    });
    await seek(0.1); // v1 not started: hidden; v2: (0.1 + 0.2 media-start) * 10 = index 3
    expect(await read('v1')).toMatchObject({ img: 'hidden' });
    expect(await read('v2')).toMatchObject({ src: `${base}/frames/frame_000004.png`, decoded: true, sameBox: true, img: 'visible' });
    await seek(3); // past the last extracted frame: clamped to it
    expect((await read('v1')).src).toBe(`${base}/frames/frame_000005.png`);
    // the pixel in the middle of v1's (scaled, shifted) box is the green extracted frame, not the red video
    await seek(0.6);
    const shot = await page.screenshot({ type: 'png', encoding: 'base64', clip: { x: 62, y: 28, width: 1, height: 1 } });
    const rgb = await page.evaluate(async (data) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = 1;
      c.height = 1;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    }, shot);
    expect(rgb[1]).toBeGreaterThan(150);
    expect(rgb[0]).toBeLessThan(80);
    await page.close();
  });

  it('forwards useVideoFrames to sub-compositions and seeks their overlays at local time', async () => {
    const page = await open('/frames-parent.html');
    const base = fx.server.url;
    expect(await page.evaluate(() => (document.querySelector('[data-composition-src]') as HTMLElement).getBoundingClientRect().width)).toBe(
      160,
    );
    await page.evaluate(
      (s, b) => window.__seekframe!.useVideoFrames({ [s]: { urlPattern: `${b}/frames/frame_%06d.png`, fps: 10, frameCount: 5 } }),
      `${base}/media/clip.webm`,
      base,
    );
    await page.evaluate(() => window.__seekframe!.seek(1.75)); // child 0.75 -> v1 index 2
    const src = await page.evaluate(() => {
      const doc = document.querySelector('iframe')!.contentDocument!;
      return (doc.getElementById('v1')!.nextElementSibling as HTMLImageElement).src;
    });
    expect(src).toBe(`${base}/frames/frame_000003.png`);
    await page.close();
  });
});
