import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFolderStorage, getText, putFile } from '../src/index.js';
import {
  chunkStep,
  distributedSpecInput,
  packProject,
  planStep,
  producerCore,
  renderKeys,
  systemRuntime,
  type DistributedDeps,
  type DistributedStore,
} from '../src/distributed/index.js';

/**
 * A chunk completed twice (a worker thought lost that finishes after all, a retry after a lost
 * answer) writes its segment key once: the segment is written create-only, and a chunk whose
 * segment is stored already is not rendered again. Real Chromium and ffmpeg, a folder store.
 */
describe('a chunk rendered twice writes its key once', () => {
  let work: string;
  let deps: DistributedDeps;
  const writes: { key: string; created: boolean }[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'seekframe-chunk-once-'));
    const project = path.join(work, 'project');
    await mkdir(project);
    await writeFile(
      path.join(project, 'index.html'),
      `<!doctype html><html data-composition-id="once" data-width="64" data-height="36" data-duration="0.6" data-fps="10">
<body style="margin:0;background:#246"><div id="b" style="width:8px;height:36px;background:#fff"></div>
<script>window.__seekframe.onSeek((t) => { document.getElementById('b').style.marginLeft = Math.round(t * 90) + 'px'; });</script></body></html>`,
    );
    const folder = createLocalFolderStorage({ root: path.join(work, 'store') }) as DistributedStore;
    const store: DistributedStore = {
      ...folder,
      async put(key, body, options) {
        const result = await folder.put(key, body, options);
        writes.push({ key, created: result.created });
        return result;
      },
    };
    deps = { store, core: producerCore, runtime: systemRuntime(), workRoot: path.join(work, 'tmp') };
    // The project travels through the store, as a submitter puts it there for the workers.
    await packProject(project, path.join(work, 'project.tar.gz'));
    await putFile(folder, renderKeys('once-0000000001').project, path.join(work, 'project.tar.gz'));
    await planStep(deps, {
      renderId: 'once-0000000001',
      projectDir: project,
      spec: distributedSpecInput({ quality: 'draft' }, project),
      source: project,
      chunking: { chunkCount: 2 },
      workDir: path.join(work, 'plan'),
    });
  }, 120_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('two renders of one chunk at once: both finish, one segment write is created, the other refused; a third is not rendered', async () => {
    const plan = JSON.parse((await getText(deps.store, renderKeys('once-0000000001').plan))!) as { plan: { hash: string } };
    const input = { renderId: 'once-0000000001', planHash: plan.plan.hash, chunk: 1 };
    const [a, b] = await Promise.all([chunkStep(deps, input, { attempt: 0 }), chunkStep(deps, input, { attempt: 1 })]);
    const key = renderKeys('once-0000000001').chunk(1);
    const segmentWrites = writes.filter((w) => w.key === key);
    expect(segmentWrites.filter((w) => w.created)).toHaveLength(1);
    expect([a.reused, b.reused].sort()).toEqual([false, true]);
    const third = await chunkStep(deps, input, { attempt: 2 });
    expect(third).toMatchObject({ reused: true, frames: 3 });
    expect(third.timings).toBeUndefined();
    expect(writes.filter((w) => w.key === key).length).toBe(segmentWrites.length);
  }, 120_000);
});
