import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBatch } from '../src/index.js';
import { batchProject, eventLog, readJson } from './helpers/batch-project.js';
import { decodeFrames, pixel, probe } from './helpers/media-tools.js';

let temp: Awaited<ReturnType<typeof batchProject>>;
beforeAll(async () => {
  temp = await batchProject();
});
afterAll(async () => temp?.cleanup());

const rows = [
  { title: 'Red one', bg: '#ff0000' },
  { title: 'Green', bg: '#00ff00' },
  { title: 'Blue/3', bg: '#0000ff' },
];

describe('renderBatch', () => {
  it('renders a 3-row batch two at a time, with a manifest and row-tagged events', async () => {
    const log = eventLog();
    const result = await renderBatch(
      {
        render: { projectDir: temp.project, workers: 'auto' },
        batch: { rows },
        output: 'out/{title}-{index}.mp4',
        concurrency: 2,
        cwd: temp.dir,
      },
      log.push,
    );
    const outDir = path.join(temp.dir, 'out');
    expect(result).toMatchObject({
      manifest: path.join(outDir, 'manifest.json'),
      cancelled: false,
      counts: { total: 3, completed: 3, failed: 0, skipped: 0, resumed: 0 },
    });
    expect((await readdir(outDir)).sort()).toEqual(['Blue-3-2.mp4', 'Green-1.mp4', 'Red-one-0.mp4', 'manifest.json']);

    // Each output is a real 3-frame video painted with its own row's variables.
    const colors: Record<string, [number, number, number]> = {
      'Red-one-0.mp4': [255, 0, 0],
      'Green-1.mp4': [0, 255, 0],
      'Blue-3-2.mp4': [0, 0, 255],
    };
    for (const [name, rgb] of Object.entries(colors)) {
      const info = await probe(path.join(outDir, name));
      expect(info.streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '3' });
      const [frame] = await decodeFrames(path.join(outDir, name), 160, 90);
      pixel(frame!, 160, 80, 60).forEach((channel, i) => expect(Math.abs(channel - rgb[i]!)).toBeLessThan(40));
    }

    const manifest = await readJson(result.manifest);
    expect(manifest).toMatchObject({
      version: 1,
      status: 'completed',
      composition: path.join(temp.project, 'index.html'),
      outputTemplate: 'out/{title}-{index}.mp4',
    });
    expect(manifest.counts).toEqual({ total: 3, pending: 0, running: 0, completed: 3, failed: 0, skipped: 0, resumed: 0 });
    for (const [index, row] of (manifest.rows as any[]).entries()) {
      expect(row).toMatchObject({
        index,
        status: 'completed',
        variables: rows[index],
        videoDuration: expect.closeTo(0.3, 6),
        error: null,
        resumed: false,
      });
      expect(row.renderTimeMs).toBeGreaterThan(0);
      // The size recorded is the output file's.
      expect(row.size).toBe((await stat(path.join(outDir, row.output))).size);
      expect(Date.parse(row.finishedAt)).toBeGreaterThanOrEqual(Date.parse(row.startedAt));
    }
    expect(manifest.rows.map((row: any) => row.output)).toEqual(['Red-one-0.mp4', 'Green-1.mp4', 'Blue-3-2.mp4']);

    // Events: batch-start first, batch-complete last; each row starts before its progress and outcome.
    expect(log.events[0]).toMatchObject({ type: 'batch-start', total: 3, concurrency: 2, manifest: result.manifest });
    expect(log.events.at(-1)).toMatchObject({
      type: 'batch-complete',
      counts: { total: 3, completed: 3, failed: 0, skipped: 0 },
      cancelled: false,
    });
    // Two rows at once: rows 0 and 1 both start before either finishes.
    const order = log.events.map((event) => `${event.type}:${'row' in event ? event.row : ''}`);
    expect(order.indexOf('batch-row-start:1')).toBeLessThan(order.indexOf('batch-row-complete:0'));
    expect(order.indexOf('batch-row-start:2')).toBeGreaterThan(
      Math.min(order.indexOf('batch-row-complete:0'), order.indexOf('batch-row-complete:1')),
    );
    for (const row of [0, 1, 2]) {
      const own = log.events.filter((event) => 'row' in event && event.row === row);
      expect(own[0]).toMatchObject({ type: 'batch-row-start', output: path.join(outDir, Object.keys(colors)[row]!), variables: rows[row] });
      expect(own.some((event) => event.type === 'progress' && event.framesRendered === 3)).toBe(true);
      expect(own.at(-1)).toMatchObject({ type: 'batch-row-complete', videoDuration: expect.closeTo(0.3, 6), resumed: false });
    }
    // A row's own complete/error are not forwarded: those are batch-row-* events.
    expect(log.of('complete' as never)).toEqual([]);

    // Resume: row 0 unchanged (kept), row 1 changed (rendered), row 2 unchanged but its output is gone.
    await rm(path.join(outDir, 'Blue-3-2.mp4'));
    const again = eventLog();
    const changed = [rows[0], { ...rows[1], bg: '#ffffff' }, rows[2]];
    const resumed = await renderBatch(
      { render: { projectDir: temp.project, workers: 1 }, batch: changed, output: 'out/{title}-{index}.mp4', resume: true, cwd: temp.dir },
      again.push,
    );
    expect(resumed.counts).toEqual({ total: 3, completed: 3, failed: 0, skipped: 0, resumed: 1 });
    expect(again.of('batch-row-start').map((event) => event.row)).toEqual([1, 2]);
    expect(again.of('batch-row-complete').find((event) => event.row === 0)).toMatchObject({ resumed: true });
    const after = await readJson(result.manifest);
    expect(after.rows.map((row: any) => [row.status, row.resumed])).toEqual([
      ['completed', true],
      ['completed', false],
      ['completed', false],
    ]);
    expect(after.rows[0].finishedAt).toBe(manifest.rows[0].finishedAt);
    expect(after.rows[1].variables).toEqual(changed[1]);
    expect((await probe(path.join(outDir, 'Blue-3-2.mp4'))).streams[0]).toMatchObject({ nb_read_frames: '3' });
    // Row 1 really was re-rendered with its new variables: now white, not green.
    expect((await probe(path.join(outDir, 'Green-1.mp4'))).streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '3' });
    const [rerendered] = await decodeFrames(path.join(outDir, 'Green-1.mp4'), 160, 90);
    pixel(rerendered!, 160, 80, 60).forEach((channel) => expect(channel).toBeGreaterThan(215));
  });

  it('a row whose asset 404s fails while the others finish; the manifest records the error', async () => {
    const log = eventLog();
    const batch = [{ title: 'a' }, { title: 'b', logo: 'images/missing.png' }, { title: 'c' }];
    const result = await renderBatch(
      { render: { projectDir: temp.project, workers: 1 }, batch, output: 'fail/{title}.mp4', concurrency: 2, cwd: temp.dir },
      log.push,
    );
    expect(result.counts).toEqual({ total: 3, completed: 2, failed: 1, skipped: 0, resumed: 0 });
    expect((await readdir(path.join(temp.dir, 'fail'))).sort()).toEqual(['a.mp4', 'c.mp4', 'manifest.json']);
    for (const name of ['a.mp4', 'c.mp4']) {
      expect((await probe(path.join(temp.dir, 'fail', name))).streams[0], name).toMatchObject({ codec_name: 'h264', nb_read_frames: '3' });
    }
    expect(log.of('batch-row-failed')).toEqual([
      {
        type: 'batch-row-failed',
        row: 1,
        output: path.join(temp.dir, 'fail', 'b.mp4'),
        error: expect.objectContaining({ code: 'asset-not-found' }),
      },
    ]);
    const manifest = await readJson(result.manifest);
    expect(manifest.status).toBe('failed');
    expect(manifest.rows[1]).toMatchObject({
      status: 'failed',
      output: 'b.mp4',
      videoDuration: null,
      error: { code: 'asset-not-found', message: expect.stringContaining('images/missing.png') },
    });
    expect(typeof manifest.rows[1].error.stage).toBe('string');
    expect(manifest.rows[1].renderTimeMs).toBeGreaterThan(0);
  });

  it('--batch-fail-fast: no row starts after the first failure, the rest are skipped', async () => {
    const log = eventLog();
    const batch = [{ title: 'a' }, { title: 'b', logo: 'nope.png' }, { title: 'c' }, { title: 'd' }];
    const result = await renderBatch(
      { render: { projectDir: temp.project, workers: 1 }, batch, output: 'fast/{title}.mp4', failFast: true, resume: true, cwd: temp.dir },
      log.push,
    );
    // Nothing to resume from in a fresh folder: a batch-level warning, then every row is due.
    expect(log.events[1]).toMatchObject({ type: 'warning', code: 'batch/nothing-to-resume' });
    expect('row' in log.events[1]!).toBe(false);
    expect(result.counts).toEqual({ total: 4, completed: 1, failed: 1, skipped: 2, resumed: 0 });
    expect(log.of('batch-row-start').map((event) => event.row)).toEqual([0, 1]);
    expect(log.of('batch-row-skipped')).toMatchObject([
      { row: 2, reason: 'fail-fast' },
      { row: 3, reason: 'fail-fast' },
    ]);
    expect((await readdir(path.join(temp.dir, 'fast'))).sort()).toEqual(['a.mp4', 'manifest.json']);
    expect((await probe(path.join(temp.dir, 'fast', 'a.mp4'))).streams[0]).toMatchObject({ codec_name: 'h264', nb_read_frames: '3' });
    const manifest = await readJson(result.manifest);
    expect(manifest.rows.map((row: any) => row.status)).toEqual(['completed', 'failed', 'skipped', 'skipped']);
    expect(manifest.rows[2].error).toEqual({ code: 'batch-fail-fast', message: expect.stringContaining('row 1 failed'), stage: null });
  });

  it('an abort cancels the running row and skips the rest, leaving no outputs', async () => {
    const controller = new AbortController();
    const log = eventLog();
    const result = await renderBatch(
      {
        render: { projectDir: temp.project, workers: 1 },
        batch: rows,
        output: 'cancel/{index}.mp4',
        cwd: temp.dir,
        signal: controller.signal,
      },
      (event) => {
        log.push(event);
        if (event.type === 'progress') controller.abort(new Error('test abort'));
      },
    );
    expect(result).toMatchObject({ cancelled: true, counts: { total: 3, completed: 0, failed: 1, skipped: 2 } });
    expect(await readdir(path.join(temp.dir, 'cancel'))).toEqual(['manifest.json']);
    const manifest = await readJson(result.manifest);
    expect(manifest.status).toBe('cancelled');
    expect(manifest.rows.map((row: any) => [row.status, row.error.code])).toEqual([
      ['failed', 'render-cancelled'],
      ['skipped', 'render-cancelled'],
      ['skipped', 'render-cancelled'],
    ]);
    expect(log.events.at(-1)).toMatchObject({ type: 'batch-complete', cancelled: true });
  });
});
