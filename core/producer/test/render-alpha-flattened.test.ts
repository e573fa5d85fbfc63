import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRender, renderComposition, type RenderEvent } from '../src/index.js';
import { decodeFrames, pixel } from './helpers/media-tools.js';
import { tempProject } from './helpers/temp-project.js';

/**
 * A transparent overlay (white text, nothing painted behind it) rendered to a format without
 * alpha: the frames are flattened on white, so the render says so, naming the formats that keep
 * the transparency and the colour it was flattened on.
 */
const overlay = `<!doctype html>
<html data-composition-id="lower-third" data-width="160" data-height="90" data-duration="0.3">
<head><style>html,body{margin:0;background:transparent}.name{position:absolute;left:8px;top:50px;width:100px;height:24px;background:rgba(0,0,0,0.5);color:#fff}</style></head>
<body><div class="name">Ada</div></body></html>`;
/** The same, behind a full-frame stage that paints a background (HyperFrames' usual root): not transparent. */
const staged = overlay.replace('<body>', '<body><div id="stage" style="position:absolute;inset:0;background:#123456"></div>');

let projects: { dir: string; cleanup(): Promise<void> }[] = [];
beforeAll(async () => {
  projects = await Promise.all([tempProject({ 'index.html': overlay }), tempProject({ 'index.html': staged })]);
});
afterAll(async () => {
  await Promise.all(projects.map((p) => p.cleanup()));
});

const warnings = (events: RenderEvent[]) => events.filter((e): e is Extract<RenderEvent, { type: 'warning' }> => e.type === 'warning');

describe('a transparent composition in a format without alpha', () => {
  it('mp4: a warning naming the formats that keep alpha and the colour it was flattened on; the report lists it', async () => {
    const [project] = projects;
    const events: RenderEvent[] = [];
    const output = `${project!.dir}/out.mp4`;
    await renderComposition({ projectDir: project!.dir, output, fps: 10, workers: 1, quality: 'draft' }, (e) => events.push(e));
    const [warning, ...others] = warnings(events);
    expect(others).toEqual([]);
    expect(warning).toMatchObject({
      code: 'alpha-flattened',
      details: { format: 'mp4', flattenedOn: '#ffffff', alphaFormats: ['mov', 'webm', 'png-sequence'] },
    });
    expect(warning!.message).toMatch(/mp4 has no alpha channel.*flattened on white \(#ffffff\).*mov, webm or png-sequence/);
    const complete = events.at(-1) as Extract<RenderEvent, { type: 'complete' }>;
    expect(complete.report?.warnings).toEqual([{ code: 'alpha-flattened', message: warning!.message }]);
    // What the warning says is what happened: the backdrop is white.
    const [frame] = await decodeFrames(output, 160, 90);
    expect(pixel(frame!, 160, 150, 10).every((v) => v > 245)).toBe(true);
  });

  it('--strict: an error with the same code, before any frame is captured', async () => {
    await expect(planRender({ projectDir: projects[0]!.dir, format: 'gif', workers: 1, strict: true })).rejects.toMatchObject({
      code: 'alpha-flattened',
      message: expect.stringContaining('gif has no alpha channel'),
    });
  });

  it('no warning for a format that keeps alpha, nor for a composition that paints a full-frame background', async () => {
    const quiet: RenderEvent[] = [];
    await planRender({ projectDir: projects[0]!.dir, format: 'webm', workers: 1 }, { onEvent: (e) => quiet.push(e) });
    await planRender({ projectDir: projects[1]!.dir, format: 'mp4', workers: 1 }, { onEvent: (e) => quiet.push(e) });
    expect(warnings(quiet)).toEqual([]);
  });
});
