import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTreeMemory } from '@seekframe/engine';
import { descendants, processChildren } from './process-tree.js';

/** The bound the memory tests render under: small, so a hostile page reaches it in a second or two. */
export const TEST_MAX_MEMORY_MB = 600;

/**
 * A project whose composition (160x90, 3 s at 10 fps) grows its memory while it loads when the
 * variable `grow` says so: `heap` (arrays: V8's heap), `array-buffers` (outside V8's heap), or
 * `none` (a tame render). The page stops growing by itself at 1.5 GB of its own allocations, so a
 * broken guard still cannot take a shared machine (and the render would then complete: the
 * tests see it). Returns the project folder.
 */
export async function hostileMemoryProject(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  const options = ['none', 'heap', 'array-buffers'].map((value) => ({ value, label: value }));
  const variables = JSON.stringify([{ id: 'grow', type: 'enum', label: 'What to grow', options, default: 'none' }]);
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html data-composition-id="m" data-width="160" data-height="90" data-duration="3" data-fps="10" data-composition-variables='${variables}'><head></head>
<body><div id="n"></div><script>
  const { grow = 'none' } = window.__seekframe.getVariables();
  window.__seekframe.onSeek((t) => { document.getElementById('n').textContent = String(t); });
  // All at once while the page loads, so the render cannot get ready (and finish) first.
  const keep = [];
  for (let allocated = 0; grow !== 'none' && allocated < 1500; ) {
    if (grow === 'heap') {
      for (let i = 0; i < 1000; i++) keep.push(new Array(10000).fill(Math.random()));
      allocated += 80;
    } else {
      const buffer = new ArrayBuffer(64 * 1024 * 1024);
      new Uint8Array(buffer).fill(1);
      keep.push(buffer);
      allocated += 64;
    }
  }
</script></body></html>`,
  );
  return dir;
}

export interface TreeWatch {
  /** Every descendant process seen so far. */
  seen: Set<number>;
  /** When the tree's memory (without `pid` itself) was first read above `bytes`. */
  overAt: number | undefined;
  peakBytes: number;
  stop(): void;
}

/**
 * Reads the memory of everything below `pid` every 200 ms, the way the guard measures it,
 * recording every process seen and when the total first went over `bytes`.
 */
export function watchTree(pid: number, bytes: number): TreeWatch {
  const tree = createTreeMemory();
  const watch: TreeWatch = {
    seen: new Set(),
    overAt: undefined,
    peakBytes: 0,
    stop: () => {
      clearInterval(timer);
      tree.close();
    },
  };
  const timer = setInterval(() => {
    const children = processChildren();
    for (const child of descendants(pid, children)) watch.seen.add(child);
    // Node's own memory is not the browsers': only its children's trees count.
    let total = 0;
    for (const held of tree.read(children.get(pid) ?? []).values()) total += held;
    watch.peakBytes = Math.max(watch.peakBytes, total);
    if (watch.overAt === undefined && total > bytes) watch.overAt = Date.now();
  }, 200);
  return watch;
}
