import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seededRandom } from '../../runtime/src/browser/seeded-random.js';
import { seekframeBin } from './interrupt-cli.js';

/**
 * `kill -9` of `seekframe render --batch rows.json --batch-resume` at 20 moments drawn from a
 * seeded generator, each followed by a resume of the same command: the outputs end byte-identical
 * to an uninterrupted run, and no partial file or temp folder is left. The CLI gets no chance to
 * clean up: what a killed run leaves, the next run must sweep (stale temps whose process is gone)
 * or ignore (rows whose output is missing are rendered again). A resume that finishes is checked,
 * then its outputs are removed so later kills land mid-batch again.
 *
 * The composition reads Math.random (seeded per render) but not the clock, whose epoch is the plan
 * time: equal bytes across processes are what a render of a clock-free page promises.
 */
const SEED = 34;
const KILLS = 20;
const ROWS = [{ n: 1 }, { n: 2 }];
const COMPOSITION = `<!doctype html><html data-composition-id="crash" data-width="32" data-height="32" data-duration="0.3" data-fps="10"
  data-composition-variables='[{"id":"n","label":"N","type":"number","default":0}]'><head><style>html,body{margin:0;width:32px;height:32px}</style></head>
<body><div id="b" style="width:32px;height:32px"></div><script>
const { n } = window.__seekframe.getVariables();
window.__seekframe.onSeek((t) => {
  const r = Math.floor(Math.random() * 200);
  document.getElementById('b').style.background = 'rgb(' + r + ',' + (n * 60) + ',' + Math.round(t * 600) + ')';
});
</script></body></html>`;

let dir: string;
let tmp: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-batch-crash-'));
  tmp = path.join(dir, 'tmp');
  await mkdir(tmp);
  await mkdir(path.join(dir, 'project'));
  await writeFile(path.join(dir, 'project', 'index.html'), COMPOSITION);
  await writeFile(path.join(dir, 'project', 'rows.json'), JSON.stringify(ROWS));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Every process below `pid` now (browsers, ffmpeg), read from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * One run of the batch; `killAfterMs` kills it with SIGKILL that long after it printed its first
 * line (the CLI is up and planning). Answers whether the kill landed (the run was still going).
 */
async function runBatch(killAfterMs?: number): Promise<{ killed: boolean; code: number | null; stderr: string; orphans: number[] }> {
  const args = [
    'render',
    'project',
    '--batch',
    'project/rows.json',
    '--batch-resume',
    '--output',
    'out/{n}.mp4',
    '--workers',
    '1',
    '--json',
  ];
  const child = spawn(process.execPath, [seekframeBin, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: os.homedir(), TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  let killed = false;
  let below: number[] = [];
  if (killAfterMs !== undefined) {
    child.stdout.once('data', () => {
      setTimeout(() => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        below = descendants(child.pid!);
        killed = child.kill('SIGKILL');
      }, killAfterMs);
    });
  }
  child.stdout.resume();
  const code = await closed;
  // The CLI's browser and ffmpeg lose their pipes with it and end on their own; a bound only a
  // stuck one would reach, after which it is killed here and reported.
  const until = Date.now() + 20_000;
  while (below.some(alive) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  const orphans = below.filter(alive);
  for (const pid of orphans) process.kill(pid, 'SIGKILL');
  return { killed, code, stderr, orphans };
}

async function outputs(): Promise<Record<string, string>> {
  const names = (await readdir(path.join(dir, 'out')).catch(() => [] as string[])).filter((name) => name.endsWith('.mp4')).sort();
  const hashes: Record<string, string> = {};
  for (const name of names)
    hashes[name] = createHash('sha256')
      .update(await readFile(path.join(dir, 'out', name)))
      .digest('hex');
  return hashes;
}

/** What a finished batch must leave: exactly its outputs and manifest, and an empty temp folder. */
async function expectClean(reference: Record<string, string>, when: string): Promise<void> {
  expect(await outputs(), when).toEqual(reference);
  expect((await readdir(path.join(dir, 'out'))).sort(), when).toEqual([...Object.keys(reference), 'manifest.json'].sort());
  expect(await readdir(tmp), when).toEqual([]);
}

it(`kill -9 at ${KILLS} seeded moments, each followed by a resume: outputs byte-identical to an uninterrupted run, nothing partial left`, {
  // About 25 CLI runs, each starting Node, a browser and ffmpeg: ~1-2 min on a quiet machine, and a
  // bound for a loaded one (4-5 min at a load average of 40 on 2 cores).
  timeout: 600_000,
}, async () => {
  const started = Date.now();
  const first = await runBatch();
  expect(first.code, first.stderr).toBe(0);
  const fullMs = Date.now() - started;
  const reference = await outputs();
  expect(Object.keys(reference)).toEqual(['1.mp4', '2.mp4']);
  // A second uninterrupted run in another process: the same bytes (what "byte-identical" rests on).
  await rm(path.join(dir, 'out'), { recursive: true });
  expect((await runBatch()).code).toBe(0);
  await expectClean(reference, 'a second uninterrupted run');

  // The runtime's own generator (mulberry32): the kill moments, repeatable by SEED.
  const random = seededRandom(SEED);
  await rm(path.join(dir, 'out'), { recursive: true });
  let kills = 0;
  let resumesFinished = 0;
  const orphans: number[] = [];
  for (let round = 0; kills < KILLS && round < KILLS * 3; round++) {
    // A moment within the first 60% of a whole uninterrupted run, from its first line on: a
    // resume has less left to do, and a later moment would mostly find it finished.
    const run = await runBatch(Math.floor(random() * fullMs * 0.6));
    orphans.push(...run.orphans);
    if (run.killed) {
      kills++;
      continue;
    }
    console.log(`round ${round}: the resume finished before its moment (${kills} kills so far)`);
    // The resume finished before its moment came: it must be complete and clean; start over.
    expect(run.code, run.stderr).toBe(0);
    await expectClean(reference, `after round ${round}`);
    resumesFinished++;
    await rm(path.join(dir, 'out'), { recursive: true });
  }
  expect(kills).toBe(KILLS);
  // The last resume, to the end.
  const last = await runBatch();
  expect(last.code, last.stderr).toBe(0);
  await expectClean(reference, 'after the final resume');
  expect(orphans, 'browser or ffmpeg processes that outlived a killed CLI by 20 s').toEqual([]);
  console.log(`${kills} kills, ${resumesFinished} resumes finished between them (seed ${SEED}, moments within ${fullMs} ms)`);
});
