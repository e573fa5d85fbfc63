import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isWatchedPath, watchProject } from './watch-project.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-watch-'));
  await mkdir(path.join(dir, 'scenes'));
  await mkdir(path.join(dir, 'renders'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('isWatchedPath', () => {
  it('ignores outputs, dependencies and dot folders', () => {
    expect(isWatchedPath('index.html')).toBe(true);
    expect(isWatchedPath('scenes/card.html')).toBe(true);
    expect(isWatchedPath('renders/out.mp4')).toBe(false);
    expect(isWatchedPath('node_modules/gsap/index.js')).toBe(false);
    expect(isWatchedPath('.git/index')).toBe(false);
  });
});

describe('watchProject', () => {
  it('turns a burst of edits (also in subfolders) into one call, without ignored paths', async () => {
    const calls: string[][] = [];
    const first = new Promise<void>((resolve) => {
      const stop = watchProject(
        dir,
        (files) => {
          calls.push(files);
          stop();
          resolve();
        },
        // Generous: a loaded machine may pause between the writes below.
        500,
      );
    });
    await writeFile(path.join(dir, 'index.html'), 'a');
    await writeFile(path.join(dir, 'scenes', 'card.html'), 'b');
    await writeFile(path.join(dir, 'renders', 'x.mp4'), 'c');
    await first;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(['index.html', 'scenes/card.html']);
  });
});

describe('watchProject after a save by rename', () => {
  it('keeps seeing a file that a save replaced by a rename (editors, the studio), and new folders', async () => {
    const seen: string[][] = [];
    let wake: (() => void) | undefined;
    const stop = watchProject(
      dir,
      (files) => {
        seen.push(files);
        wake?.();
      },
      100,
    );
    const next = (): Promise<void> => new Promise((resolve) => (wake = resolve));
    for (const text of ['one', 'two', 'three']) {
      const arrived = next();
      await writeFile(path.join(dir, '.index.html.tmp'), text);
      await rename(path.join(dir, '.index.html.tmp'), path.join(dir, 'index.html'));
      await arrived;
    }
    const inPlace = next();
    await writeFile(path.join(dir, 'index.html'), 'four');
    await inPlace;
    const made = next();
    await mkdir(path.join(dir, 'later'));
    await made;
    const inNew = next();
    await writeFile(path.join(dir, 'later', 'x.html'), 'x');
    await inNew;
    stop();
    expect(seen).toEqual([['index.html'], ['index.html'], ['index.html'], ['index.html'], ['later'], ['later/x.html']]);
  });
});
