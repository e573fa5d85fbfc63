import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { renderComposition, type RenderEvent, type RenderOptionsInput } from '../src/index.js';
import { childProcesses, childProcessesSync } from './helpers/child-processes.js';
import { frameIndexProject } from './helpers/fixtures.js';
import { composition, tempProject } from './helpers/temp-project.js';

let project: { dir: string; cleanup(): Promise<void> };
let hanging: net.Server;
let hangingPort: number;
let closedPort: number;

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

beforeAll(async () => {
  // Accepts connections and never answers: an asset that never finishes loading.
  hanging = net.createServer(() => undefined);
  hangingPort = await listen(hanging);
  const probe = net.createServer();
  closedPort = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));

  const page = (body: string): string => composition({ duration: 0.3, fps: 10, body });
  project = await tempProject({
    'script-error/index.html': page('<script>throw new Error("boom-7781: the author script failed");</script>'),
    'missing-asset/index.html': page('<img src="images/missing-logo.png" style="width:20px;height:20px">'),
    // A file named only by a script: no preflight sees it, the project server does.
    'missing-dynamic/index.html': page(
      '<img id="logo" style="width:20px;height:20px"><script>document.getElementById("logo").src = "images/" + "missing-logo.png";</script>',
    ),
    'remote-down/index.html': page(`<img src="http://127.0.0.1:${closedPort}/logo.png" style="width:20px;height:20px">`),
    'remote-dynamic/index.html': page(`<script>fetch('http://127.0.0.1:${closedPort}/data.json').catch(() => undefined);</script>`),
    'never-ready/index.html': page(`<img src="http://127.0.0.1:${hangingPort}/slow.png" style="width:20px;height:20px">`),
    ...Object.fromEntries(Object.entries(frameIndexProject({ duration: 10, fps: 15 })).map(([name, text]) => [`long/${name}`, text])),
  });
});
afterAll(async () => {
  hanging?.close();
  await project?.cleanup();
});

/** Runs a render that must fail; returns the error and checks nothing was left in the output folder. */
async function expectFailure(options: Omit<RenderOptionsInput, 'output'>, onEvent?: (e: RenderEvent) => void): Promise<SeekframeError> {
  const outDir = path.join(project.dir, `out-${path.basename(options.projectDir)}-${Date.now()}`);
  const events: RenderEvent[] = [];
  const error = await renderComposition({ ...options, output: path.join(outDir, 'video.mp4') }, (e) => {
    events.push(e);
    onEvent?.(e);
  }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SeekframeError);
  expect(events.at(-1)).toMatchObject({ type: 'error', error: { code: (error as SeekframeError).code } });
  expect(await readdir(outDir).catch(() => [])).toEqual([]);
  // Every browser and ffmpeg this render started is gone.
  expect(await childProcesses(/chrom|ffmpeg/)).toEqual([]);
  return error as SeekframeError;
}

describe('failures leave no output and say what went wrong', () => {
  it('a page script error -> page-script-error quoting it', async () => {
    const error = await expectFailure({ projectDir: path.join(project.dir, 'script-error'), workers: 1 });
    expect(error.code).toBe('page-script-error');
    expect(error.message).toContain('boom-7781: the author script failed');
  });

  it('a missing local asset named in the source -> lint-failed before any browser, naming the file and where it is named', async () => {
    const error = await expectFailure({ projectDir: path.join(project.dir, 'missing-asset'), workers: 1 });
    expect(error.code).toBe('lint-failed');
    expect(error.stage).toBe('lint');
    expect(error.message).toMatch(
      /index\.html:\d+:\d+ error project\/missing-file <img src> names "images\/missing-logo\.png", which does not exist/,
    );
  });

  it('a missing local asset a script asks for -> asset-not-found naming the file and the HTML that used it', async () => {
    const error = await expectFailure({ projectDir: path.join(project.dir, 'missing-dynamic'), workers: 1 });
    expect(error.code).toBe('asset-not-found');
    expect(error.message).toContain('images/missing-logo.png');
    expect(error.message).toContain('index.html');
  });

  it('an unreachable remote asset -> remote-asset-failed naming the URL', async () => {
    const error = await expectFailure({ projectDir: path.join(project.dir, 'remote-down'), workers: 1 });
    expect(error.code).toBe('remote-asset-failed');
    expect(error.message).toContain(`http://127.0.0.1:${closedPort}/logo.png`);
  });

  it('a remote URL fetched by a script (not through the server) -> remote-asset-failed naming it', async () => {
    const error = await expectFailure({ projectDir: path.join(project.dir, 'remote-dynamic'), workers: 1 });
    expect(error.code).toBe('remote-asset-failed');
    expect(error.message).toContain(`http://127.0.0.1:${closedPort}/data.json`);
  });

  it('a page that never becomes ready -> ready-timeout saying what it waited for', async () => {
    const error = await expectFailure({ projectDir: path.join(project.dir, 'never-ready'), workers: 1, readyTimeoutMs: 1500 });
    expect(error.code).toBe('ready-timeout');
    expect(error.message).toMatch(/waiting for .*slow\.png/);
  });

  it('a browser that keeps dying mid-render -> browser-crashed (after the engine gave up replacing it)', async () => {
    const killed = new Set<number>();
    const error = await expectFailure({ projectDir: path.join(project.dir, 'long'), workers: 1 }, (event) => {
      if (event.type !== 'progress') return;
      // 150 frames, one worker: kill every browser as soon as it delivers, replacements included.
      for (const pid of childProcessesSync(/chrom/)) {
        if (killed.has(pid)) continue;
        killed.add(pid);
        process.kill(pid, 'SIGKILL');
      }
    });
    expect(killed.size).toBeGreaterThan(1);
    expect(error.code).toBe('browser-crashed');
  });

  it('ffmpeg killed mid-render -> ffmpeg-exited', async () => {
    let killed = false;
    const error = await expectFailure({ projectDir: path.join(project.dir, 'long'), workers: 1 }, (event) => {
      if (event.type !== 'progress' || killed) return;
      killed = true;
      for (const pid of childProcessesSync(/ffmpeg/)) process.kill(pid, 'SIGKILL');
    });
    expect(killed).toBe(true);
    expect(error.code).toBe('ffmpeg-exited');
  });

  it('an abort (Ctrl-C) -> render-cancelled', async () => {
    const controller = new AbortController();
    const error = await expectFailure({ projectDir: path.join(project.dir, 'long'), workers: 2, signal: controller.signal }, (event) => {
      if (event.type === 'progress') controller.abort(new Error('interrupted (Ctrl-C)'));
    });
    expect(error.code).toBe('render-cancelled');
    expect(error.message).toContain('interrupted (Ctrl-C)');
  });

  it('lint errors -> lint-failed with the findings, before any browser starts', async () => {
    const bad = await tempProject({ 'index.html': '<!doctype html><html data-composition-id="x"><body></body></html>' });
    try {
      const events: RenderEvent[] = [];
      const error = await renderComposition({ projectDir: bad.dir, output: path.join(bad.dir, 'out.mp4') }, (e) => events.push(e)).catch(
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code: 'lint-failed', stage: 'lint' });
      expect((error as SeekframeError).details?.findings).toEqual(expect.arrayContaining([expect.objectContaining({ severity: 'error' })]));
      expect((error as SeekframeError).message).toMatch(/index\.html:\d+:\d+ error/);
      expect(events.filter((e) => e.type === 'stage').map((e) => (e as { stage: string }).stage)).toEqual(['lint']);
      expect(await readdir(bad.dir)).toEqual(['index.html']);
    } finally {
      await bad.cleanup();
    }
  });

  it('encoder rules are checked before any browser starts (crf on a gif)', async () => {
    const events: RenderEvent[] = [];
    const error = await renderComposition(
      { projectDir: path.join(project.dir, 'long'), output: path.join(project.dir, 'gif', 'out.gif'), format: 'gif', crf: 20 },
      (e) => events.push(e),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-options', details: { field: 'crf' } });
    expect((error as Error).message).toMatch(/mp4, hls and webm only/);
    // The render spec knows the encoder's rules, so this fails before even the lint stage.
    expect(events.filter((e) => e.type === 'stage').map((e) => (e as { stage: string }).stage)).toEqual([]);
  });

  it('strict variables -> invalid-variables and nothing rendered', async () => {
    const error = await renderComposition({
      projectDir: path.join(project.dir, 'long'),
      output: path.join(project.dir, 'strict', 'out.mp4'),
      variables: { nope: 1 },
      strictVariables: true,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid-variables', stage: 'variables' });
    expect((error as Error).message).toContain('"nope" is not declared');
    expect(await readdir(path.join(project.dir, 'strict')).catch(() => [])).toEqual([]);
  });
});
