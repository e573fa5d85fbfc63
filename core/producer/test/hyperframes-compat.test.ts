import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkComposition, renderComposition, type RenderEvent } from '../src/index.js';
import { decodeFrames, pixel } from './helpers/media-tools.js';

/**
 * Compositions written in HyperFrames' documented format (test/fixtures/hyperframes), rendered at
 * 160x90 with few frames and checked by pixels. Every case rendered empty, failed lint or moved in
 * real time before the runtime understood this format.
 */
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'hyperframes');
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-hf-'));
});
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

// Sandboxed: the fixtures load GSAP/anime.js from jsdelivr, which must come from the installed
// packages; the browser can then reach nothing but the project server.
async function render(fixture: string, options: Record<string, unknown> = {}): Promise<{ frames: Buffer[]; events: RenderEvent[] }> {
  const output = path.join(outDir, `${fixture}-${Math.random().toString(36).slice(2)}.mp4`);
  const events: RenderEvent[] = [];
  await renderComposition(
    { projectDir: path.join(fixtures, fixture), output, fps: 10, workers: 1, network: 'sandboxed', ...options },
    (e) => events.push(e),
  );
  return { frames: await decodeFrames(output, 160, 90), events };
}

/** Within a few levels of the expected colour (H.264 at 4:2:0 blurs edges, so sample inside areas). */
function expectColor(actual: number[], expected: number[], label: string): void {
  const close = actual.every((v, i) => Math.abs(v - (expected[i] as number)) <= (label.startsWith('#') ? 3 : 40));
  expect(close, `${label}: got rgb(${actual.join(', ')}), expected rgb(${expected.join(', ')})`).toBe(true);
}

/** Width of the run starting at x0 on row y whose `channel` (0 R, 1 G, 2 B) is bright. */
function runWidth(frame: Buffer, x0: number, y: number, max: number, channel = 0): number {
  let x = 0;
  while (x < max && pixel(frame, 160, x0 + x, y)[channel]! > 128) x++;
  return x;
}

/** The captured colour went through JPEG (BT.601 YCbCr): a level or two off. */
function expectHex(hex: string, expected: number[]): void {
  expect(hex).toMatch(/^#[0-9a-f]{6}$/);
  expectColor(
    [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)),
    expected,
    hex,
  );
}

const warningsOf = (events: RenderEvent[]) => events.filter((e): e is Extract<RenderEvent, { type: 'warning' }> => e.type === 'warning');

describe('HyperFrames compatibility (render)', () => {
  it('a <template> child embedded twice: own CSS, own variables, own GSAP timeline, length from the host or from its timeline', async () => {
    const { frames, events } = await render('template-instances');
    expect(frames).toHaveLength(20);
    // t = 0.5 s: both instances, each in its own colour, each bar half grown (40 of 80 px).
    expectColor(pixel(frames[5]!, 160, 40, 30), [255, 0, 0], 'card-a fill');
    expectColor(pixel(frames[5]!, 160, 120, 30), [0, 0, 255], 'card-b fill');
    expect(Math.abs(runWidth(frames[5]!, 0, 75, 80) - 40)).toBeLessThanOrEqual(2);
    expect(Math.abs(runWidth(frames[5]!, 80, 75, 80) - 40)).toBeLessThanOrEqual(2);
    // t = 1.5 s: card-a (host: 2 s) still shows, its bar held full; card-b (its timeline: 1 s) is over.
    expectColor(pixel(frames[15]!, 160, 40, 30), [255, 0, 0], 'card-a fill at 1.5 s');
    expect(runWidth(frames[15]!, 0, 75, 80)).toBeGreaterThanOrEqual(78);
    expectColor(pixel(frames[15]!, 160, 120, 30), [0, 0, 0], 'card-b after its timeline');
    // The timeline deciding card-b's length is a lint note, not a warning; nothing says the render is empty.
    expect(warningsOf(events).map((w) => w.code)).toEqual([]);
  });

  it("a <template> child without data-width/data-height fills its host's box: from CSS, or from the host's data-width/data-height", async () => {
    const { frames, events } = await render('sized-by-host');
    expect(frames).toHaveLength(10);
    expectColor(pixel(frames[5]!, 160, 40, 45), [255, 0, 0], 'left host (80x90 by CSS)');
    expectColor(pixel(frames[5]!, 160, 120, 20), [0, 0, 255], 'corner host (80x40 by its data-width/height)');
    expectColor(pixel(frames[5]!, 160, 120, 70), [0, 0, 0], 'below the corner host');
    expect(warningsOf(events)).toEqual([]);
  });

  it('an entry without data-duration lasts as long as the timeline it registers, and the report says so', async () => {
    const { frames, events } = await render('timeline-length');
    expect(frames).toHaveLength(15);
    expect(Math.abs(runWidth(frames[10]!, 0, 45, 160) - 100)).toBeLessThanOrEqual(2);
    expect(warningsOf(events)).toEqual([]);
    const complete = events.at(-1) as Extract<RenderEvent, { type: 'complete' }>;
    expect(complete.videoDuration).toBeCloseTo(1.5, 5);
    expect(complete.report?.length).toMatchObject({ seconds: 1.5, source: 'timeline' });
    expect(complete.report?.length?.note).toContain('window.__timelines["main"]');
  });

  it('without data-duration or a timeline, it lasts until its last finite CSS animation or Web Animation ends', async () => {
    const { frames, events } = await render('animations-length');
    expect(frames).toHaveLength(12);
    expect(warningsOf(events)).toEqual([]);
    const complete = events.at(-1) as Extract<RenderEvent, { type: 'complete' }>;
    expect(complete.report?.length).toMatchObject({ seconds: 1.2, source: 'animations' });
  });

  it('seekframe check takes that length from the page too, and says where it came from', async () => {
    const report = await checkComposition({ projectDir: path.join(fixtures, 'timeline-length'), network: 'sandboxed', maxSamples: 4 });
    expect(report.length).toMatchObject({ seconds: 1.5, source: 'timeline' });
    expect(report.findings.filter((f) => f.check === 'lint')).toEqual([]);
    expect(report.checks.lint.status).toBe('passed');
  });

  it('nests <template> children three deep, each at its own local time', async () => {
    const { frames } = await render('nested');
    expect(frames).toHaveLength(10);
    expectColor(pixel(frames[2]!, 160, 80, 15), [255, 0, 0], 'level 1 at 0.2 s');
    expectColor(pixel(frames[2]!, 160, 80, 45), [0, 0, 0], 'level 2 before its start');
    expectColor(pixel(frames[7]!, 160, 80, 15), [255, 0, 0], 'level 1 at 0.7 s');
    expectColor(pixel(frames[7]!, 160, 80, 45), [0, 255, 0], 'level 2 at 0.7 s');
    expectColor(pixel(frames[7]!, 160, 80, 75), [0, 0, 255], 'level 3 at 0.7 s');
  });

  it('anime.js timelines registered with hyperframesAnime.register (library from jsdelivr, offline), in the root <div> and in a <template> child whose in-flow host takes its height', async () => {
    const { frames } = await render('anime-register', { workers: 2 });
    expect(frames).toHaveLength(10);
    frames.forEach((frame, i) => {
      expect(Math.abs(runWidth(frame, 0, 20, 160) - 16 * i), `root bar, frame ${i}`).toBeLessThanOrEqual(2);
      expect(Math.abs(runWidth(frame, 0, 70, 160, 1) - 8 * i), `child bar, frame ${i}`).toBeLessThanOrEqual(2);
    });
  });

  it('<html> with the id and variables, a stage element with the size and length', async () => {
    const { frames, events } = await render('html-stage', { variables: { accent: '#0000ff' } });
    expect(frames).toHaveLength(10);
    expect(Math.abs(runWidth(frames[5]!, 0, 45, 160, 2) - 80)).toBeLessThanOrEqual(2);
    expectColor(pixel(frames[5]!, 160, 40, 45), [0, 0, 255], 'stage panel in the --variables accent');
    expect(warningsOf(events).filter((w) => w.code.startsWith('lint/root'))).toEqual([]);
  });

  it('an <iframe> page animated by requestAnimationFrame follows the composition clock, frame-exact, with two workers', async () => {
    const { frames } = await render('iframe-raf', { workers: 2 });
    expect(frames).toHaveLength(10);
    const widths = frames.map((frame) => runWidth(frame, 0, 45, 160));
    widths.forEach((width, i) => expect(Math.abs(width - 16 * i), `frame ${i}: ${widths.join(', ')}`).toBeLessThanOrEqual(1));
  });
});

describe('no silent blank render', () => {
  it('warns naming the host and file when a sub-composition has nothing to show, and when every frame is only the background', async () => {
    const { frames, events } = await render('blank');
    expect(frames).toHaveLength(5);
    const warnings = warningsOf(events).filter((w) => !w.code.startsWith('lint/'));
    expect(warnings.map((w) => w.code)).toEqual(['sub-composition-empty', 'blank-render']);
    expect(warnings[0]!.message).toMatch(/Sub-composition "nothing" \(.*empty-child\.html\) shows nothing/);
    expect(warnings[0]!.details).toMatchObject({ host: '<div#slot>' });
    expectHex(String(warnings[1]!.details?.colour), [0x10, 0x20, 0x30]);
    expect(warnings[1]!.message).toContain(String(warnings[1]!.details?.colour));
  });

  it('warns when an <iframe> clip shows something its clock cannot follow (not an HTML page); --strict fails', async () => {
    const { events } = await render('iframe-text');
    const warnings = warningsOf(events).filter((w) => !w.code.startsWith('lint/'));
    expect(warnings.map((w) => w.code)).toEqual(['clip-source-unreadable']);
    expect(warnings[0]!.message).toMatch(/<iframe#notes>.*text\/plain/);
    expect(warnings[0]!.details).toMatchObject({ src: 'notes.txt' });
    await expect(
      renderComposition({
        projectDir: path.join(fixtures, 'iframe-text'),
        output: path.join(outDir, 'strict-text.mp4'),
        fps: 10,
        workers: 1,
        strict: true,
      }),
    ).rejects.toMatchObject({
      code: 'clip-source-unreadable',
    });
  });

  it('--strict makes them errors, and no output is written', async () => {
    const output = path.join(outDir, 'strict-blank.mp4');
    await expect(
      renderComposition({ projectDir: path.join(fixtures, 'blank'), output, fps: 10, workers: 1, strict: true }),
    ).rejects.toMatchObject({ code: 'sub-composition-empty' });
    const error = await renderComposition({
      projectDir: path.join(fixtures, 'blank-background'),
      output,
      fps: 10,
      workers: 1,
      strict: true,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'blank-render', message: expect.stringContaining('--strict') });
    expectHex(String((error as { details?: { colour?: string } }).details?.colour), [0x20, 0x30, 0x40]);
    await expect(stat(output)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a composition that paints something is not blank, even when no frame changes', async () => {
    const { frames, events } = await render('static-card', { strict: true });
    expect(frames[0]!.equals(frames[4]!)).toBe(true);
    expect(warningsOf(events).filter((w) => !w.code.startsWith('lint/'))).toEqual([]);
  });
});
