import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { probeMedia } from '@seekframe/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hostileMemoryProject, TEST_MAX_MEMORY_MB, watchTree } from './hostile-memory.js';
import { stillRunning } from './process-tree.js';
import { GATED_COMPOSITION, sse, startServe } from './serve-cli.js';

let root: string;
let tmp: string;
beforeAll(async () => {
  // The server's root is the hostile project itself ("."); the tame render is the gated one beside it.
  root = await hostileMemoryProject('seekframe-cli-serve-memory-');
  await mkdir(path.join(root, 'gated'));
  await writeFile(path.join(root, 'gated', 'index.html'), GATED_COMPOSITION);
  await writeFile(path.join(root, 'gated', 'gate.txt'), 'wait');
  tmp = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-serve-memory-tmp-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

it('seekframe serve --max-memory: a render that outgrows the bound fails with memory-limit-exceeded; the render beside it completes and the server carries on', {
  timeout: 180_000,
}, async () => {
  const serve = startServe(root, ['--max-memory', String(TEST_MAX_MEMORY_MB), '--max-concurrent-renders', '2', '--warm-browsers', '2'], {
    TMPDIR: tmp,
  });
  const closed = new Promise<number | null>((resolve) => serve.child.on('close', resolve));
  const url = await serve.url;
  const watch = watchTree(serve.child.pid!, 2 * TEST_MAX_MEMORY_MB * 2 ** 20);
  try {
    // The tame render first: it waits in capture (gate.txt) until the hostile one has failed.
    const tameEvents: Array<{ type: string; [key: string]: unknown }> = [];
    let capturing!: () => void;
    const inCapture = new Promise<void>((resolve) => (capturing = resolve));
    const tame = (async () => {
      for await (const event of sse(url, { projectDir: 'gated', workers: 1 })) {
        tameEvents.push(event);
        if (event.type === 'progress') capturing();
      }
    })();
    await inCapture;

    const hostileEvents: Array<{ type: string; [key: string]: unknown }> = [];
    for await (const event of sse(url, { projectDir: '.', workers: 1, variables: { grow: 'array-buffers' } })) hostileEvents.push(event);
    const failure = hostileEvents.at(-1) as { type: string; error: { code: string; message: string } };
    expect(failure.type).toBe('error');
    expect(failure.error.code).toBe('memory-limit-exceeded');
    expect(failure.error.message).toMatch(/more than its memory bound of 600 MB \(--max-memory\)/);
    // No server path in what the client sees.
    expect(failure.error.message).not.toContain(root);
    expect(tameEvents.map((event) => event.type)).not.toContain('complete');

    // The offending browser was killed and retired; the server answers and the tame render finishes.
    const health = (await (await fetch(`${url}/health`)).json()) as {
      status: string;
      activeRenders: number;
      browserPool: { replaced: number };
    };
    expect(health).toMatchObject({ status: 'ok', activeRenders: 1 });
    expect(health.browserPool.replaced).toBeGreaterThanOrEqual(1);
    await writeFile(path.join(root, 'gated', 'gate.txt'), 'go');
    await tame;
    const complete = tameEvents.at(-1) as { type: string; outputUrl: string };
    expect(complete.type).toBe('complete');
    const video = path.join(tmp, 'tame.mp4');
    await writeFile(video, Buffer.from(await (await fetch(`${url}${complete.outputUrl}`)).arrayBuffer()));
    expect(await probeMedia(video)).toMatchObject({ hasVideo: true, width: 32, height: 32 });
    await rm(video);

    // The server's memory never went far past what one bound allows.
    expect(watch.peakBytes).toBeLessThan(2 * TEST_MAX_MEMORY_MB * 2 ** 20);
  } finally {
    watch.stop();
    serve.child.kill('SIGTERM');
  }
  expect(await closed).toBe(0);
  expect(await stillRunning([...watch.seen])).toEqual([]);
  expect(await readdir(tmp)).toEqual([]);
});
