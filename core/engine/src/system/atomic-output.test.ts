import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { commitOutput, prepareTemp, removeOwnTempsSync, sweepStaleTemps, tempFolderPrefix, tempPathFor } from './atomic-output.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'atomic-output-test-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const DEAD = 3_999_001;
const LIVE = 3_999_002;
const alive = (pid: number): boolean => pid === LIVE;

it('names temp outputs with the writer pid, hidden and marked partial', () => {
  expect(path.basename(tempPathFor('/x/out/video.mp4'))).toMatch(
    new RegExp(`^\\.video\\.mp4\\.${process.pid}-[0-9a-f]{8}\\.partial\\.mp4$`),
  );
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

it("removeOwnTempsSync (a forced exit) removes this process's uncommitted temp outputs and its temp folders, nothing else", async () => {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir; // os.tmpdir() follows it: the folders below stand for the system temp folder
  try {
    const out = path.join(dir, 'out');
    const pending = tempPathFor(path.join(out, 'a.mp4'));
    await prepareTemp(pending, path.join(out, 'a.mp4'), false);
    await writeFile(pending, 'half');
    const done = tempPathFor(path.join(out, 'b.mp4'));
    await writeFile(done, 'whole');
    await commitOutput(done, path.join(out, 'b.mp4'), false);
    await writeFile(path.join(out, 'mine.partial.txt'), 'not ours by name');
    await mkdtemp(tempFolderPrefix('render'));
    await mkdtemp(tempFolderPrefix('profile'));
    const anotherProcess = path.join(dir, `seekframe-render-${LIVE}-abc123`);
    await mkdir(anotherProcess);

    removeOwnTempsSync();
    expect((await readdir(out)).sort()).toEqual(['b.mp4', 'mine.partial.txt']);
    expect((await readdir(dir)).sort()).toEqual(['out', path.basename(anotherProcess)].sort());
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});
