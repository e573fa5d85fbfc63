import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition, type RenderEvent } from '../src/index.js';
import { decodeFrames, pixel } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

let project: { dir: string; cleanup(): Promise<void> };

const host = (id: string, left: number, values?: Record<string, string>): string =>
  `<div id="${id}" data-composition-id="${id}" data-composition-src="card.html" data-start="0" data-duration="0.3"` +
  `${values ? ` data-variable-values='${JSON.stringify(values)}'` : ''} style="position:absolute;left:${left}px;top:20px;width:40px;height:40px"></div>`;

/**
 * One child file embedded three times: two hosts set its colour (red, green), the third keeps the
 * declared default (blue). The child's script uses a plain document.querySelector, which must find
 * its own instance's box. The top level's background comes from the render's variables.
 */
beforeAll(async () => {
  project = await tempProject({
    'index.html': composition({
      duration: 0.3,
      fps: 10,
      variables: [{ id: 'bg', label: 'Background', type: 'color', default: '#000000' }],
      body: `${host('a', 0, { color: '#ff0000' })}${host('b', 60, { color: '#00ff00' })}${host('c', 120)}
<script>document.body.style.background = window.__seekframe.getVariables().bg;</script>`,
    }),
    'card.html': composition({
      id: 'card',
      width: 40,
      height: 40,
      duration: 0.3,
      variables: [{ id: 'color', label: 'Colour', type: 'color', default: '#0000ff' }],
      body: `<div class="box" style="width:40px;height:40px"></div>
<script>document.querySelector('.box').style.background = window.__seekframe.getVariables().color;</script>`,
    }),
  });
});
afterAll(async () => project?.cleanup());

function near(actual: [number, number, number], expected: [number, number, number]): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]!) <= 24);
}

describe('variables and sub-compositions', () => {
  it('paints declared defaults, per-host values and top-level overrides', async () => {
    const output = path.join(project.dir, 'vars.mp4');
    const events: RenderEvent[] = [];
    await renderComposition({ projectDir: project.dir, output, variables: { bg: '#ffff00' }, workers: 1 }, (e) => events.push(e));
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    const frames = await decodeFrames(output, 160, 90);
    expect(frames).toHaveLength(3);
    for (const frame of frames) {
      expect(pixel(frame, 160, 20, 40), 'host a: red from data-variable-values').toSatisfy((p: [number, number, number]) =>
        near(p, [255, 0, 0]),
      );
      expect(pixel(frame, 160, 80, 40), 'host b: green from data-variable-values').toSatisfy((p: [number, number, number]) =>
        near(p, [0, 255, 0]),
      );
      expect(pixel(frame, 160, 140, 40), 'host c: the declared default blue').toSatisfy((p: [number, number, number]) =>
        near(p, [0, 0, 255]),
      );
      expect(pixel(frame, 160, 50, 80), 'top level: yellow from the render variables').toSatisfy((p: [number, number, number]) =>
        near(p, [255, 255, 0]),
      );
    }
  });

  it('warns about an undeclared variable and still renders', async () => {
    const output = path.join(project.dir, 'warn.mp4');
    const events: RenderEvent[] = [];
    const result = await renderComposition({ projectDir: project.dir, output, variables: { nope: 1 }, workers: 1 }, (e) => events.push(e));
    expect(result.frames).toBe(3);
    const warnings = events.filter((e) => e.type === 'warning');
    expect(warnings).toMatchObject([{ code: 'variables/undeclared', details: { id: 'nope' } }]);
    // Without an override the top level keeps its declared default (black).
    const [first] = await decodeFrames(output, 160, 90);
    expect(near(pixel(first!, 160, 50, 80), [0, 0, 0])).toBe(true);
  });
});
