import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lintProject } from '@seekframe/composition';
import { createBrowserPool, type BrowserPool } from '@seekframe/engine';
import { renderComposition, type RenderEvent } from '@seekframe/producer';
import { fontPackageCheck, listProjectHtmlFiles, readProjectFile } from '@seekframe/producer/project-files';
import { decodeRgba, hexToRgb, near, pixelAt, probeVideo } from './support/media.js';
import { CASES, type Probe } from './conformance-cases.js';

/**
 * The conformance corpus (corpus/conformance, one folder per composition, in the styles of the
 * public registries): each lints clean, and renders as shipped (no edit, CDN libraries answered by
 * installed packages) into a file ffprobe reads, with pixels where the composition draws them.
 * Fast: 640x360, 10 fps, only the frames the probes look at, every render leasing one warm browser.
 */
const corpus = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'conformance');
const FPS = 10;
let outDir: string;
let browsers: BrowserPool;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-conformance-'));
  browsers = createBrowserPool({ maxBrowsers: 1 });
});
afterAll(async () => {
  await browsers?.close();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

it('every composition folder of the corpus has a case here, and every case a folder', async () => {
  const folders = (await readdir(corpus, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .map((entry) => entry.name)
    .sort();
  expect(folders).toEqual(CASES.map((c) => c.name).sort());
  expect(folders.length).toBeGreaterThanOrEqual(30);
});

it('the compatibility page lists every composition of the corpus', async () => {
  const page = await readFile(path.join(corpus, '..', '..', 'docs', 'guide', 'hyperframes.md'), 'utf8');
  for (const { name } of CASES) expect(page, name).toContain(`| \`${name}\` |`);
});

describe.each(CASES)('$name', (testCase) => {
  const dir = path.join(corpus, testCase.name);

  it('lints clean (notes allowed: where a length comes from)', async () => {
    const entry = path.join(dir, 'index.html');
    const findings = await lintProject(entry, {
      readFile: readProjectFile,
      fontPackageInstalled: fontPackageCheck(dir),
      projectHtmlFiles: () => listProjectHtmlFiles(dir),
    });
    expect(findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it(`renders as shipped to ${testCase.format ?? 'mp4'}, with ${testCase.probes.length} pixel checks`, async () => {
    const format = testCase.format ?? 'mp4';
    const frameOf = (t: number): number => Math.round(t * FPS);
    const first = Math.min(...testCase.probes.map((p) => frameOf(p.t)));
    const last = Math.max(...testCase.probes.map((p) => frameOf(p.t)));
    const output = path.join(outDir, `${testCase.name}.${format}`);
    const events: RenderEvent[] = [];
    await renderComposition(
      {
        projectDir: dir,
        output,
        format,
        fps: FPS,
        frames: { start: first, end: last },
        workers: 1,
        quality: 'draft',
        network: 'sandboxed',
      },
      (e) => events.push(e),
      { browsers },
    );
    // Nothing the render thought wrong (lint warnings, an empty sub-composition, a flattened alpha...).
    // canvas-capture-blocked is not one: it says the frames were captured with beginframe instead of
    // canvas (a <canvas>, WebGL, backface-visibility...), the same frames, nothing for the author to do.
    expect(events.filter((e) => e.type === 'warning' && e.code !== 'canvas-capture-blocked')).toEqual([]);
    const complete = events.at(-1) as Extract<RenderEvent, { type: 'complete' }>;
    expect(complete.type).toBe('complete');
    if (testCase.length) expect(complete.report?.length).toMatchObject(testCase.length);

    const video = await probeVideo(output);
    expect(video).toMatchObject({ width: 640, height: 360, frames: last - first + 1 });
    expect(video.codec).toBe({ mp4: 'h264', webm: 'vp9', mov: 'prores' }[format]);
    if (format === 'webm') expect(video.alphaMode).toBe('1');

    const frames = await decodeRgba(output, 640, 360);
    expect(frames).toHaveLength(last - first + 1);
    for (const probe of testCase.probes) {
      const frame = frames[frameOf(probe.t) - first]!;
      expect(check(frame, probe), `${testCase.name} at ${probe.t} s: ${describeProbe(probe)}`).toBe(true);
    }
  });
});

/** H.264 at draft quality and 4:2:0 moves colours a little: points sit inside flat areas. */
const TOLERANCE = 28;

function check(frame: Buffer, probe: Probe): boolean {
  if ('at' in probe) {
    const [x, y] = probe.at;
    const px = pixelAt(frame, 640, x, y);
    if (probe.alpha && !(px[3] >= probe.alpha[0] && px[3] <= probe.alpha[1])) return false;
    return probe.rgb === undefined || near(px, hexToRgb(probe.rgb), probe.tol ?? TOLERANCE);
  }
  const [bx, by, bw, bh] = probe.box;
  const target = hexToRgb(probe.has ?? probe.lacks!);
  let found = false;
  for (let y = by; y < by + bh && !found; y++)
    for (let x = bx; x < bx + bw && !found; x++) found = near(pixelAt(frame, 640, x, y), target, probe.tol ?? TOLERANCE);
  return probe.has ? found : !found;
}

function describeProbe(probe: Probe): string {
  if ('at' in probe) return `pixel ${probe.at.join(',')} ${probe.rgb ?? ''}${probe.alpha ? ` alpha ${probe.alpha.join('-')}` : ''}`;
  return `box ${probe.box.join(',')} ${probe.has ? `has ${probe.has}` : `lacks ${probe.lacks}`}`;
}
