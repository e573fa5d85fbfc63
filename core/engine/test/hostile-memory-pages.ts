/**
 * Pages that try to take the machine's memory, for the memory-bound tests. Each stops growing on
 * its own at `capMB` of its own allocations, so a test whose guard failed still cannot use more
 * than that (the machine is shared): the tests bound at 600 MB and cap at 1500.
 */
export type HostileKind = 'heap' | 'array-buffers';

/** The script: grows the JavaScript heap (arrays of numbers) or fills ArrayBuffers (outside V8's heap), ~100 MB per step. */
export function hostileScript(kind: HostileKind, capMB = 1500): string {
  const step =
    kind === 'heap'
      ? // 1000 arrays of 10,000 doubles: ~80 MB of heap per step.
        `for (let i = 0; i < 1000; i++) keep.push(new Array(10000).fill(Math.random()));
         allocated += 80;`
      : `const buffer = new ArrayBuffer(64 * 1024 * 1024);
         new Uint8Array(buffer).fill(1);
         keep.push(buffer);
         allocated += 64;`;
  return `<script>
  window.keep = [];
  let allocated = 0;
  function grow() {
    if (allocated >= ${capMB}) return;
    ${step}
    setTimeout(grow, 20);
  }
  grow();
</script>`;
}

/** A whole page: the script above in a document the runtime can load (for compositions, see the callers). */
export function hostilePage(kind: HostileKind, capMB?: number): string {
  return `<!doctype html><html><head><title>${kind}</title></head><body><p>${kind}</p>${hostileScript(kind, capMB)}</body></html>`;
}
