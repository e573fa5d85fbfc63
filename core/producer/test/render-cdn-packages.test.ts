import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkComposition, planRender, renderComposition, type RenderEvent } from '../src/index.js';
import { decodeFrames, pixel } from './helpers/media-tools.js';

const run = promisify(execFile);
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'cdn-package');
let dir: string;
let project: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cdn-package-'));
  project = path.join(dir, 'project');
  await cp(path.join(fixtures, 'project'), project, { recursive: true });
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A composition that loads a library from jsDelivr and unpkg whose package the project has not
 * installed (a made-up one: no registry has it). The render fetches nothing: one error names the
 * package, its version and the command; after `npm i` of the package (a local tarball) the same
 * HTML renders.
 */
describe('a library from an npm CDN that the project has not installed', () => {
  it('fails with one package-not-installed error naming the package, the version and npm i, however many of its files the page loads', async () => {
    const events: RenderEvent[] = [];
    const error = await renderComposition(
      { projectDir: project, output: path.join(dir, 'before.mp4'), fps: 10, workers: 1, network: 'sandboxed' },
      (e) => events.push(e),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'package-not-installed',
      details: { package: 'made-up-tween', version: '2.4.1', install: 'npm i made-up-tween@2.4.1' },
    });
    const message = (error as Error).message;
    expect(message).toContain('made-up-tween@2.4.1');
    expect(message).toMatch(/Install it in the project folder .*: npm i made-up-tween@2\.4\.1$/);
    // One error: no HTTP status of the project server's answer, no line per file.
    expect(message).not.toMatch(/\b50\d\b|colour\.js|made-up-tween\.js/);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('seekframe check reports it once (no failed request per file)', async () => {
    const report = await checkComposition({ projectDir: project, network: 'sandboxed', maxSamples: 2 });
    const codes = report.findings.map((f) => f.code);
    expect(codes.filter((c) => c === 'page/package-not-installed')).toHaveLength(1);
    expect(codes).not.toContain('page/request-failed');
  });

  it('several missing packages: one error naming each, with one command for all of them', async () => {
    const two = path.join(dir, 'two');
    await cp(project, two, { recursive: true });
    const { readFile, writeFile } = await import('node:fs/promises');
    const html = await readFile(path.join(two, 'index.html'), 'utf8');
    await writeFile(
      path.join(two, 'index.html'),
      html.replace('</head>', '<script src="https://cdn.jsdelivr.net/npm/@made-up/shapes@1/shapes.js"></script>\n</head>'),
    );
    await expect(planRender({ projectDir: two, workers: 1, network: 'sandboxed' })).rejects.toMatchObject({
      code: 'package-not-installed',
      message: expect.stringMatching(
        /2 packages .*made-up-tween@2\.4\.1, @made-up\/shapes@1\. .*: npm i made-up-tween@2\.4\.1 @made-up\/shapes@1$/,
      ),
    });
  });

  it('once the package is installed in the project (npm i of its tarball), the same HTML renders from it', async () => {
    const { stdout } = await run('npm', ['pack', path.join(fixtures, 'made-up-tween'), '--pack-destination', dir], { cwd: dir });
    const tarball = path.join(dir, stdout.trim().split('\n').at(-1)!);
    await run('npm', ['install', '--no-audit', '--no-fund', '--offline', '--no-save', tarball], { cwd: project });
    const output = path.join(dir, 'after.mp4');
    const events: RenderEvent[] = [];
    await renderComposition({ projectDir: project, output, fps: 10, workers: 1, network: 'sandboxed' }, (e) => events.push(e));
    expect(events.at(-1)).toMatchObject({ type: 'complete' });
    const frames = await decodeFrames(output, 160, 90);
    expect(frames).toHaveLength(5);
    // Both files ran: the bar is the unpkg file's green, as wide as the jsDelivr file's tween says (40 px at 0.4 s).
    expect(pixel(frames[4]!, 160, 20, 45)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
    const [r, g, b] = pixel(frames[4]!, 160, 20, 45);
    expect(g).toBeGreaterThan(200);
    expect(r! + b!).toBeLessThan(80);
    expect(pixel(frames[4]!, 160, 60, 45).every((v) => v < 30)).toBe(true);
  });
});
