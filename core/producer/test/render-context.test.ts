import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBrowser, findFfmpeg } from '@seekframe/engine';
import { assembleSegments, planRender, ProblemLog, renderFrames, type RenderEvent } from '../src/index.js';
import { frameIndexProject } from './helpers/fixtures.js';
import { tempProject } from './helpers/temp-project.js';

let project: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  project = await tempProject(frameIndexProject({ duration: 1, fps: 10 }));
});
afterAll(async () => project?.cleanup());

/** A wrapper that records each call's arguments, then runs the real binary (what a host's bundled ffmpeg would be). */
async function recordingWrapper(name: string, real: string, log: string): Promise<string> {
  const file = path.join(project.dir, `${name}-wrapper.sh`);
  await writeFile(file, `#!/bin/sh\nprintf '%s\\n' "${name} $*" >> '${log}'\nexec '${real}' "$@"\n`);
  await chmod(file, 0o755);
  return file;
}

describe('the render context', () => {
  it('uses the browser, ffmpeg and runtime a host injects, and the problem log it passes', async () => {
    const real = await findFfmpeg();
    const log = path.join(project.dir, 'calls.log');
    const ffmpeg = {
      ffmpeg: await recordingWrapper('ffmpeg', real.ffmpeg, log),
      ffprobe: await recordingWrapper('ffprobe', real.ffprobe, log),
    };
    let browserAsked = 0;
    const found = await findBrowser();
    const browser = async () => {
      browserAsked++;
      return found;
    };
    let runtimeAsked = 0;
    const { loadRuntimeSource } = await import('../src/serve/load-runtime-source.js');
    const runtimeSource = async () => {
      runtimeAsked++;
      return loadRuntimeSource();
    };
    const events: RenderEvent[] = [];
    const problems = new ProblemLog();
    const context = { browser, ffmpeg, runtimeSource, problems, onEvent: (e: RenderEvent) => events.push(e) };

    // No ffmpeg on PATH (a Lambda with a bundled binary): only the injected one can run.
    const previousPath = process.env.PATH;
    process.env.PATH = path.join(project.dir, 'empty-bin');
    let plan;
    try {
      plan = await planRender({ projectDir: project.dir, workers: 1, quality: 'draft' }, context);
      const pieces = [path.join(project.dir, 'a.mp4'), path.join(project.dir, 'b.mp4')];
      await renderFrames(plan, { start: 0, end: 4 }, { kind: 'segment', path: pieces[0]! }, { ...context, projectDir: project.dir });
      await renderFrames(plan, { start: 4, end: 10 }, { kind: 'segment', path: pieces[1]! }, { ...context, projectDir: project.dir });
      const joined = await assembleSegments(plan, pieces, null, path.join(project.dir, 'joined.mp4'), context);
      expect(joined.frames).toBe(10);
    } finally {
      process.env.PATH = previousPath;
    }
    expect(plan.versions.ffmpeg).toBe(real.version);

    const calls = (await readFile(log, 'utf8')).split('\n');
    // The segment encoder, the join and its frame count all ran through the injected binaries.
    expect(calls.filter((c) => c.startsWith('ffmpeg ') && c.includes('-x264-params'))).toHaveLength(2);
    expect(calls.some((c) => c.startsWith('ffmpeg ') && c.includes('-f concat'))).toBe(true);
    expect(calls.some((c) => c.startsWith('ffprobe ') && c.includes('-count_packets'))).toBe(true);
    expect(browserAsked).toBe(3);
    expect(runtimeAsked).toBe(3);
    expect(
      events
        .filter((e) => e.type === 'stage')
        .map((e) => (e as { stage: string }).stage)
        .slice(0, 5),
    ).toEqual(['lint', 'load', 'variables', 'serve', 'media']);
    expect(problems.problems()).toEqual([]);
  }, 180_000);

  it('records a missing asset in the problem log the host passed, and fails naming it', async () => {
    // Named by a script, so the page (not the preflight) finds it missing.
    const broken = await tempProject(
      frameIndexProject({
        duration: 1,
        fps: 10,
        extraBody: '<img id="m"><script>document.getElementById("m").src = "missing.png";</script>',
      }),
    );
    try {
      const problems = new ProblemLog();
      await expect(planRender({ projectDir: broken.dir, workers: 1 }, { problems })).rejects.toMatchObject({ code: 'asset-not-found' });
      expect(problems.problems().map((p) => p.code)).toEqual(['asset-not-found']);
      expect(problems.first()?.message).toContain('missing.png');
    } finally {
      await broken.cleanup();
    }
  }, 120_000);
});
