/**
 * What the render API keeps per finished job: 20 synchronous renders of a 1 MiB custom html
 * through `createRenderApi` with the in-memory job store, then the heap after a full GC, compared
 * with the heap before. The runner stores a 16-byte file at once: only the API's own retention is
 * measured, not a render. Nothing is asserted: it is a measurement.
 *
 *   node --expose-gc --import tsx --conditions=source bench/render-api-job-memory.ts
 *   node --expose-gc --import tsx --conditions=source bench/render-api-job-memory.ts --renders 50 --html-kib 512
 */
import { createMemoryJobStore, createRenderApi, type ObjectStore, type RenderRunner } from '@seekframe/render-api';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const renders = arg('--renders', 20);
const htmlBytes = arg('--html-kib', 1024) * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const files = new Map<string, Uint8Array>();
const objects: ObjectStore = {
  async put(key) {
    files.set(key, new Uint8Array(16));
    return { created: true };
  },
  async get() {
    return null;
  },
  async head(key) {
    return files.has(key) ? { key, size: 16, uploadedAt: new Date() } : null;
  },
  async delete(key) {
    files.delete(key);
  },
  url: () => null,
};
const runner: RenderRunner = {
  async start(job) {
    await objects.put(job.outputKey, new Uint8Array(16));
    return { kind: 'stored', durationMs: 1 };
  },
  async cancel() {},
};
const composition = {
  read: async () => ({ body: '<html data-composition-id="m" data-width="16" data-height="16" data-duration="1"></html>' }),
};
const app = createRenderApi({
  runner,
  jobs: createMemoryJobStore(),
  objects,
  composition,
  answerMode: 'sync',
  allowCustomHtml: true,
  limits: { maxBodyBytes: htmlBytes + 65_536, maxHtmlBytes: htmlBytes + 1024 },
});

const heap = (): number => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const shell = '<html data-composition-id="m" data-width="16" data-height="16" data-duration="1"><body></body></html>';
// Warm up (the first request loads the composition and compiles the routes).
await app.request('/api/render', { method: 'POST', body: JSON.stringify({ html: shell }) });

const before = heap();
for (let i = 0; i < renders; i++) {
  // Each body is its own string (a different character), as separate requests would be.
  const html = shell.replace('<body>', `<body><!--${String.fromCharCode(65 + (i % 26)).repeat(htmlBytes - shell.length - 7)}-->`);
  const answer = await app.request('/api/render', {
    method: 'POST',
    body: JSON.stringify({ html }),
    headers: { 'idempotency-key': `mem-${i}` },
  });
  if (answer.status !== 200) throw new Error(`render ${i} answered ${answer.status}: ${await answer.text()}`);
}
const after = heap();
const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `${renders} sync renders of ${mib(htmlBytes)} MiB html: heap ${mib(before)} MiB -> ${mib(after)} MiB (+${mib(after - before)} MiB after GC)`,
);
