import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserPool } from '@seekframe/engine';
import { renderComposition } from '../src/index.js';
import { decodeFrames, pixel } from './helpers/media-tools.js';
import { composition, tempProject } from './helpers/temp-project.js';

let project: { dir: string; cleanup(): Promise<void> };

beforeAll(async () => {
  // Green on a fresh profile, red when an earlier render's localStorage is still there.
  project = await tempProject({
    'index.html': composition({
      duration: 0.5,
      fps: 10,
      body: `<div id="box" style="width:160px;height:90px"></div>
<script>
  const seen = localStorage.getItem('seen');
  localStorage.setItem('seen', 'yes');
  document.getElementById('box').style.background = seen ? '#ff0000' : '#00ff00';
</script>`,
    }),
  });
});
afterAll(async () => project?.cleanup());

describe('renders with a warm browser pool (RenderContext.browsers)', () => {
  it('reuse one running browser, see nothing of the render before, and make the same frames as a render without the pool', async () => {
    const pool = createBrowserPool();
    const out = (name: string): string => path.join(project.dir, `${name}.mp4`);
    try {
      await renderComposition({ projectDir: project.dir, output: out('first'), workers: 1, quality: 'draft' }, undefined, {
        browsers: pool,
      });
      await renderComposition({ projectDir: project.dir, output: out('second'), workers: 1, quality: 'draft' }, undefined, {
        browsers: pool,
      });
      expect(pool.stats()).toMatchObject({ launched: 1, reused: 1, replaced: 0, browsers: 1, idle: 1 });
    } finally {
      await pool.close();
    }
    await renderComposition({ projectDir: project.dir, output: out('cold'), workers: 1, quality: 'draft' });
    const [first, second, cold] = await Promise.all(['first', 'second', 'cold'].map((name) => decodeFrames(out(name), 160, 90)));
    expect(second).toHaveLength(5);
    for (const frame of second!) expect(pixel(frame, 160, 80, 45)[1]).toBeGreaterThan(200); // green, never red
    expect(second!.map((f) => f.toString('base64'))).toEqual(cold!.map((f) => f.toString('base64')));
    expect(first!.map((f) => f.toString('base64'))).toEqual(cold!.map((f) => f.toString('base64')));
  });
});
