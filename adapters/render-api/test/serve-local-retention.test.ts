import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkoutCli } from '../src/contract-suite/checkout-cli.js';
import { contractCompositionDir } from '../src/node/contract-composition.js';
import { serveLocal, type LocalRenderApi } from '../src/node/serve-local.js';

/**
 * RENDER_RETENTION_SECONDS on the local folder store: past it the render answers 410 and its file
 * is gone from the folder, whether someone asks for it (deleted before the 410) or not (swept by
 * age, also files a previous run left). The API's clock is moved forward instead of waiting.
 */
let dataDir: string;
let api: LocalRenderApi;
let offsetMs = 0;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'render-api-retention-'));
  await mkdir(path.join(dataDir, 'renders'));
  // Left by a previous run: one past retention (by its age on disk), one within it.
  await writeFile(path.join(dataDir, 'renders', 'old-run.mp4'), 'old');
  const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
  await utimes(path.join(dataDir, 'renders', 'old-run.mp4'), twoHoursAgo, twoHoursAgo);
  await writeFile(path.join(dataDir, 'renders', 'recent-run.mp4'), 'recent');
  api = await serveLocal({
    compositionDir: contractCompositionDir(),
    dataDir,
    retentionSeconds: 3600,
    now: () => new Date(Date.now() + offsetMs),
    runner: { cli: checkoutCli(), workers: 1 },
  });
}, 60_000);
afterAll(async () => {
  await api?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const stored = (): Promise<string[]> => readdir(path.join(dataDir, 'renders')).then((names) => names.sort());

it('files of a previous run past retention are swept at start; newer ones stay', async () => {
  await expect.poll(stored, { timeout: 10_000, interval: 100 }).toEqual(['recent-run.mp4']);
});

it('past retention a finished render answers 410 render-expired and its file is deleted', { timeout: 180_000 }, async () => {
  const answer = await fetch(`${api.url}/api/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ variables: { title: 'Expiring' } }),
  });
  expect(answer.status).toBe(200);
  const { id, key } = (await answer.json()) as { id: string; key: string };
  expect(await stored()).toContain(path.basename(key));
  expect((await fetch(`${api.url}/api/render/${id}`)).status).toBe(200);

  offsetMs = 3601_000;
  const expired = await fetch(`${api.url}/api/render/${id}`);
  expect(expired.status).toBe(410);
  expect(((await expired.json()) as { error: { code: string } }).error.code).toBe('render-expired');
  expect(await stored()).not.toContain(path.basename(key));
});
