import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { sweepStaleTemps, tempFolderPrefix, tempPathFor } from './atomic-output.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'atomic-output-test-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const DEAD = 3_999_001;
const LIVE = 3_999_002;
const alive = (pid: number): boolean => pid === LIVE;

it('names temp outputs with the writer pid, hidden and marked partial', () => {
  expect(path.basename(tempPathFor('/x/out/video.mp4'))).toMatch(new RegExp(`^\\.video\\.mp4\\.${process.pid}-[0-9a-f]{8}\\.partial\\.mp4$`));
});

it('sweeps only our leftovers whose writer is gone (or, without a pid, older than an hour)', async () => {
  const names = {
    deadWriter: `.video.mp4.${DEAD}-0123abcd.partial.mp4`,
    liveWriter: `.video.mp4.${LIVE}-0123abcd.partial.mp4`,
    ownWriter: `.video.mp4.${process.pid}-0123abcd.partial.mp4`,
    oldUnowned: '.video.mp4.89abcdef.partial.mp4',
    newUnowned: '.clip.webm.89abcdef.partial.webm',
    deadSequence: `.frames.${DEAD}-0123abcd.partial`,
    notOurs: 'video.partial.mp4',
  };
  for (const name of Object.values(names)) {
    if (name === names.deadSequence) await mkdir(path.join(dir, name));
    else await writeFile(path.join(dir, name), 'x');
  }
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  await utimes(path.join(dir, names.oldUnowned), twoHoursAgo, twoHoursAgo);
  const deadTemp = await mkdtemp(path.join(os.tmpdir(), `seekframe-render-${DEAD}-`));
  const liveTemp = await mkdtemp(tempFolderPrefix('render'));
  try {
    const removed = await sweepStaleTemps(dir, alive);
    expect((await readdir(dir)).sort()).toEqual([names.liveWriter, names.ownWriter, names.newUnowned, names.notOurs].sort());
    expect(removed).toContain(deadTemp);
    expect(removed).not.toContain(liveTemp);
    expect(await readdir(liveTemp)).toEqual([]);
  } finally {
    await rm(deadTemp, { recursive: true, force: true });
    await rm(liveTemp, { recursive: true, force: true });
  }
});
