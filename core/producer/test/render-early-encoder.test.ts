import { execFile } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderComposition, type RenderEvent } from '../src/index.js';
import { probe } from './helpers/media-tools.js';
import { frameIndexProject } from './helpers/fixtures.js';
import { tempProject } from './helpers/temp-project.js';

const run = promisify(execFile);
let project: { dir: string; cleanup(): Promise<void> };
let gate: ReturnType<typeof createServer>;
let held: ServerResponse | undefined;
let requested: () => void;
const pageAsked = new Promise<void>((resolve) => (requested = resolve));

/** Command lines of this process's direct children (ffmpeg is started by the render under test). */
async function childCommands(): Promise<string[]> {
  const { stdout } = await run('ps', ['-o', 'args=', '--ppid', String(process.pid)]);
  return stdout.split('\n').filter(Boolean);
}

beforeAll(async () => {
  // A script the page loads from here holds its load event until the test lets it go.
  gate = createServer((_request, response) => {
    held = response;
    requested();
  });
  await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', () => resolve()));
  const port = (gate.address() as AddressInfo).port;
  project = await tempProject(
    frameIndexProject({
      duration: 1,
      fps: 10,
      extraBody: `<script>const s = document.createElement('script'); s.src = 'http://127.0.0.1:${port}/held.js'; document.head.appendChild(s);</script>`,
    }),
  );
});
afterAll(async () => {
  held?.end();
  gate?.close();
  await project?.cleanup();
});

describe('a render starts ffmpeg while its page loads', () => {
  it('has the encoder running before the page is ready, and encodes every frame with it', async () => {
    const output = path.join(project.dir, 'early.mp4');
    const stages: string[] = [];
    const rendering = renderComposition({ projectDir: project.dir, output, workers: 1, quality: 'draft' }, (event: RenderEvent) => {
      if (event.type === 'stage') stages.push(event.stage);
    });
    rendering.catch(() => undefined);
    try {
      await pageAsked;
      // The page cannot finish loading now; ffmpeg for this output (its temp name holds the
      // output's) must already be there. Before, it started only at the capture stage.
      await expect
        .poll(async () => (await childCommands()).some((line) => /ffmpeg/.test(line) && line.includes('.early.mp4.')), { timeout: 10_000, interval: 50 })
        .toBe(true);
      expect(stages).not.toContain('capture');
    } finally {
      held?.end('window.heldScriptRan = true;');
    }
    await rendering;
    const { streams } = await probe(output);
    expect(streams[0]?.nb_read_frames).toBe('10');
    expect(stages).toContain('capture');
  });
});
