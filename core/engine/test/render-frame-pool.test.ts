import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser } from '../src/browser/find-browser.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { renderFramePool, type FramePoolOptions } from '../src/pool/render-frame-pool.js';
import { launchBrowser } from '../src/browser/launch-browser.js';
import { openCapturePage } from '../src/capture/capture-page.js';
import { poolWorker, startPoolWorker } from '../src/pool/open-pool-worker.js';
import { createFrameEncoder } from '../src/encode/create-frame-encoder.js';
import { probeMedia } from '../src/media/probe-media.js';
import { countFrames, decodeRgbFrames, tempDir } from './media-fixtures.js';
import type { BrowserInfo } from '../src/browser/browser-info.js';
import { colourPage, servePages } from './serve-pages.js';
import { until } from './until.js';
import { allowedCpus, processTree } from '../src/system/pin-to-cpu.js';
import { createBrowserPool } from '../src/pool/browser-pool.js';
import { killLaunchesWhileStarting } from './die-while-starting.js';

const W = 64;
const H = 36;
let server: Awaited<ReturnType<typeof servePages>>;
let browser: BrowserInfo;

beforeAll(async () => {
  browser = await findBrowser();
  server = await servePages({
    '/colour.html': colourPage(),
    '/fails.html': colourPage({ seekThrows: 0.5 }),
    // Never finishes loading: an image that the server never answers.
    '/hangs.html': `${colourPage()}<img src="/hang.png">`,
  });
});
afterAll(async () => server.close());

function red(frame: Buffer): number {
  return PNG.sync.read(frame).data[0]!;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The CPU lists every thread of every process of a browser may run on, e.g. ['1']. */
function browserAffinity(rootPid: number): string[] {
  const lists = new Set<string>();
  for (const pid of processTree(rootPid)) {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of threads) {
      try {
        lists.add(/^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8'))![1]!);
      } catch {
        // thread ended meanwhile
      }
    }
  }
  return [...lists];
}

function baseOptions(path: string, overrides: Partial<FramePoolOptions> = {}): FramePoolOptions {
  return {
    browser,
    workers: 2,
    mode: 'beginframe',
    page: { url: server.url(path), width: W, height: H, imageFormat: 'png', transparent: false, readyTimeoutMs: 10_000 },
    times: Array.from({ length: 10 }, (_, i) => i / 10),
    batchSize: 2,
    onFrame: () => undefined,
    ...overrides,
  };
}

describe('renderFramePool', () => {
  it('delivers every frame in order from 2 browser processes, with progress', async () => {
    const delivered: Array<[number, number]> = [];
    const progress: number[] = [];
    const pids = new Set<number>();
    const result = await renderFramePool(
      baseOptions('/colour.html', {
        maxBufferedFrames: 3,
        preparePage: async (page) => {
          pids.add(page.page.browser().process()!.pid!);
        },
        onFrame: async (index, frame) => {
          // A slow consumer: workers must wait instead of buffering without bound.
          await new Promise((resolve) => setTimeout(resolve, 15));
          delivered.push([index, red(frame)]);
        },
        onProgress: ({ framesDone, totalFrames }) => {
          expect(totalFrames).toBe(10);
          progress.push(framesDone);
        },
      }),
    );
    expect(result).toMatchObject({ frames: 10, workers: 2, pageProblems: [] });
    expect(result.peakBufferedFrames).toBeLessThanOrEqual(3);
    expect(delivered.map(([index]) => index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // seek(t) paints red = t * 100, so frame i is red = i * 10.
    expect(delivered.map(([, r]) => r)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(pids.size).toBe(2);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it('works in screenshot mode with one worker', async () => {
    const reds: number[] = [];
    const result = await renderFramePool(
      baseOptions('/colour.html', { workers: 1, mode: 'screenshot', times: [0.3, 0.1, 0.2], onFrame: (_, f) => void reds.push(red(f)) }),
    );
    expect(result.workers).toBe(1);
    expect(reds).toEqual([30, 10, 20]);
  });

  it('fails the whole pool on a worker error, naming the frame, and closes every browser', async () => {
    const pids: number[] = [];
    await expect(
      renderFramePool(baseOptions('/fails.html', { preparePage: async (page) => void pids.push(page.page.browser().process()!.pid!) })),
      // Frames from t=0.5 on throw; whichever worker reaches one first names its frame.
    ).rejects.toMatchObject({ code: 'page-script-error', message: expect.stringMatching(/frame [5-9] \(t=0\.[5-9]s\)/) });
    // The second worker may still be starting when the first fails; it then never opens a page.
    expect(pids.length).toBeGreaterThanOrEqual(1);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it('replaces a browser that crashes mid-render and still delivers every frame', async () => {
    const pids: number[] = [];
    const reds: number[] = [];
    const result = await renderFramePool(
      baseOptions('/colour.html', {
        // A small window keeps both workers busy with frames after the kill, so one must restart.
        maxBufferedFrames: 2,
        preparePage: async (page) => void pids.push(page.page.browser().process()!.pid!),
        onFrame: (index, frame) => {
          reds.push(red(frame));
          if (index === 3) process.kill(pids[0]!, 'SIGKILL');
        },
      }),
    );
    expect(result.browserRestarts).toBe(1);
    expect(pids).toHaveLength(3);
    expect(reds).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it('fails with browser-crashed once the restarts are used up', async () => {
    const pids: number[] = [];
    await expect(
      renderFramePool(
        baseOptions('/colour.html', {
          maxBrowserRestarts: 0,
          preparePage: async (page) => void pids.push(page.page.browser().process()!.pid!),
          onFrame: (index) => {
            if (index === 1) for (const pid of pids) process.kill(pid, 'SIGKILL');
          },
        }),
      ),
    ).rejects.toMatchObject({ code: 'browser-crashed', message: expect.stringMatching(/frame \d+/) });
  });

  it('fails with browser-launch-failed when the replacement of a crashed browser dies while it starts, instead of waiting for it forever', async () => {
    // The producer server's way: browsers leased from a warm pool; launch 2 is the replacement.
    const browsers = createBrowserPool({ maxBrowsers: 1 });
    const spy = killLaunchesWhileStarting((launch) => launch === 2);
    const pids: number[] = [];
    try {
      await expect(
        renderFramePool(
          baseOptions('/colour.html', {
            workers: 1,
            // Frame 2 is captured only after frame 1 was delivered, so it meets the dead browser.
            maxBufferedFrames: 1,
            browserPool: browsers,
            preparePage: async (page) => void pids.push(page.page.browser().process()!.pid!),
            onFrame: (index) => {
              if (index === 1) process.kill(pids[0]!, 'SIGKILL');
            },
          }),
        ),
      ).rejects.toMatchObject({ code: 'browser-launch-failed', message: expect.stringContaining('went away while it started') });
      expect(spy).toHaveBeenCalledTimes(2);
      expect(pids).toHaveLength(1);
      expect(browsers.stats()).toMatchObject({ browsers: 0, overflow: 0 });
    } finally {
      spy.mockRestore();
      await browsers.close();
    }
  });

  it('stops on abort and closes every browser', async () => {
    const controller = new AbortController();
    const pids: number[] = [];
    let seen = 0;
    await expect(
      renderFramePool(
        baseOptions('/colour.html', {
          times: Array.from({ length: 40 }, (_, i) => i / 40),
          signal: controller.signal,
          preparePage: async (page) => void pids.push(page.page.browser().process()!.pid!),
          onFrame: () => {
            if (++seen === 3) controller.abort();
          },
        }),
      ),
    ).rejects.toMatchObject({ code: 'render-cancelled' });
    expect(seen).toBe(3);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it('fails the pool when the consumer throws', async () => {
    await expect(
      renderFramePool(
        baseOptions('/colour.html', {
          onFrame: (index) => {
            if (index === 2) throw new Error('disk full');
          },
        }),
      ),
    ).rejects.toMatchObject({ code: 'capture-failed', message: 'disk full' });
  });

  it('streams into a real encoder: browser pixels end up in an mp4 with every frame', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const output = path.join(dir, 'pool.mp4');
      const encoder = createFrameEncoder({
        format: 'mp4',
        output,
        width: W,
        height: H,
        fps: { num: 10, den: 1 },
        inputFormat: 'jpeg',
        quality: 'draft',
      });
      await renderFramePool(
        baseOptions('/colour.html', {
          page: {
            url: server.url('/colour.html'),
            width: W,
            height: H,
            imageFormat: 'jpeg',
            jpegQuality: 90,
            transparent: false,
            readyTimeoutMs: 10_000,
          },
          onFrame: (_, frame) => encoder.write(frame),
        }),
      ).catch(async (error: unknown) => {
        await encoder.abort();
        throw error;
      });
      await encoder.finish();
      expect(await countFrames(output)).toBe(10);
      expect((await probeMedia(output)).duration).toBeCloseTo(1, 1);
      // Frame i is the page seeked to t = i / 10: red = t * 100, green 50, blue 200 (give or take the YUV round trip).
      const frames = await decodeRgbFrames(output, W, H);
      expect(frames).toHaveLength(10);
      frames.forEach((frame, i) => {
        const centre = ((H >> 1) * W + (W >> 1)) * 3;
        const rgb = [frame[centre]!, frame[centre + 1]!, frame[centre + 2]!];
        expect(Math.abs(rgb[0]! - 10 * i), `frame ${i}: ${rgb.join(',')}`).toBeLessThanOrEqual(8);
        expect(Math.abs(rgb[1]! - 50), `frame ${i}: ${rgb.join(',')}`).toBeLessThanOrEqual(8);
        expect(Math.abs(rgb[2]! - 200), `frame ${i}: ${rgb.join(',')}`).toBeLessThanOrEqual(8);
      });
    } finally {
      await cleanup();
    }
  });

  it('adopts an already open page as worker 0 instead of launching a browser, and closes it', async () => {
    const options = baseOptions('/colour.html', { workers: 1 });
    const session = await launchBrowser({ browser, mode: options.mode, width: W, height: H });
    const page = await openCapturePage(session, { ...options.page, mode: options.mode });
    const pid = session.browser.process()!.pid!;
    const prepared: unknown[] = [];
    const reds: number[] = [];
    const result = await renderFramePool({
      ...options,
      adoptWorkers: [poolWorker(session, page)],
      preparePage: async (workerPage) => {
        prepared.push(workerPage);
      },
      onFrame: (_index, frame) => {
        reds.push(red(frame));
      },
    });
    expect(prepared).toEqual([page]);
    expect(result.workers).toBe(1);
    expect(reds).toHaveLength(10);
    expect(reds[9]).toBeGreaterThan(reds[0]!);
    expect(isAlive(pid)).toBe(false);
  });

  it('uses workers started before the pool (still opening) as workers 0 and 1, and closes them', async () => {
    const options = baseOptions('/colour.html');
    const early = [0, 1].map(() => startPoolWorker({ browser, mode: options.mode, page: options.page }));
    const prepared: unknown[] = [];
    const reds: number[] = [];
    const result = await renderFramePool({
      ...options,
      adoptWorkers: early,
      preparePage: async (workerPage) => void prepared.push(workerPage),
      onFrame: (_index, frame) => void reds.push(red(frame)),
    });
    const adopted = await Promise.all(early.map((launch) => launch.ready));
    expect(prepared).toHaveLength(2);
    expect(new Set(prepared)).toEqual(new Set(adopted.map((worker) => worker.page)));
    expect(result.workers).toBe(2);
    expect(reds).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    for (const worker of adopted) expect(isAlive(worker.session.browser.process()!.pid!)).toBe(false);
  });

  it('cancels a worker whose page is still loading at once, leaving no browser behind', async () => {
    const options = baseOptions('/hangs.html', { page: { ...baseOptions('/hangs.html').page, readyTimeoutMs: 60_000 } });
    const launch = startPoolWorker({ browser, mode: options.mode, page: options.page });
    // Wait until the page is loading: the browser asked for the image that never answers.
    await until(() => server.requested('/hang.png'), 'the page to ask for the image that never answers', 60_000);
    const pid = findChildBrowserPid();
    expect(pid).toBeDefined();
    const started = Date.now();
    await launch.cancel();
    // At once, not after the page's 60 s ready timeout (half of it: room for a busy machine).
    expect(Date.now() - started).toBeLessThan(30_000);
    await expect(launch.ready).rejects.toBeDefined();
    expect(isAlive(pid!)).toBe(false);
  });

  it('closes early workers it never used when the pool fails first', async () => {
    const options = baseOptions('/fails.html', { workers: 1 });
    const unused = startPoolWorker({ browser, mode: options.mode, page: baseOptions('/colour.html').page });
    // Loaded before the pool runs: a worker still loading when the pool fails is cancelled
    // instead (its own test above), and its ready then rejects.
    const worker = await unused.ready;
    const first = startPoolWorker({ browser, mode: options.mode, page: options.page });
    await expect(renderFramePool({ ...options, adoptWorkers: [first, unused] })).rejects.toMatchObject({ code: 'page-script-error' });
    expect(isAlive(worker.session.browser.process()!.pid!)).toBe(false);
  });

  it('pins each of 2+ workers to its own CPU (every process and thread); one worker or pinWorkers false stay free', async () => {
    const cpus = allowedCpus();
    const affinities = async (overrides: Partial<FramePoolOptions>): Promise<number[][][]> => {
      const seen: number[][][] = [];
      await renderFramePool(
        baseOptions('/colour.html', {
          times: [0, 0.1, 0.2, 0.3],
          preparePage: async (page, worker) => {
            // taskset prints ranges ("0-1"): compare CPU numbers, not the spelling.
            seen[worker] = browserAffinity(page.page.browser().process()!.pid!).map((list) => allowedCpus(`Cpus_allowed_list:\t${list}`));
          },
          ...overrides,
        }),
      );
      return seen;
    };
    const free = (workers: number[][][]): void => {
      for (const lists of workers) expect(lists).toEqual([cpus]);
    };
    const pinned = await affinities({ workers: 2 });
    if (cpus.length >= 2) {
      const [a, b] = pinned.map((lists) => {
        expect(lists).toHaveLength(1);
        expect(lists[0]).toHaveLength(1);
        return lists[0]![0]!;
      });
      expect(cpus).toContain(a);
      expect(cpus).toContain(b);
      expect(a).not.toBe(b);
    } else {
      free(pinned); // one CPU: nothing to choose
    }
    free(await affinities({ workers: 2, pinWorkers: false }));
    free(await affinities({ workers: 1 }));
  });
});

/** The pid of a browser process started by this test process (its direct child). */
function findChildBrowserPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === process.pid && /chrom|headless_shell/.test(stat)) return Number(entry);
    } catch {
      // exited
    }
  }
  return undefined;
}
