import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { interruptCliWhen, slowProject } from './interrupt-cli.js';

let dir: string;

// One worker per row: long enough to press Ctrl-C during row 0.
beforeAll(async () => {
  dir = await slowProject(
    'seekframe-cli-batch-sigint-',
    `\n  data-composition-variables='[{"id":"n","label":"N","type":"number","default":0}]'`,
    { 'rows.json': JSON.stringify([{ n: 1 }, { n: 2 }, { n: 3 }]) },
  );
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

it('Ctrl-C during a batch cancels the running row, skips the rest, records it in the manifest and leaves no output', {
  timeout: 90_000,
}, async () => {
  // Row 0 is capturing frames.
  const { code, stdout, stderr, interrupted, tmp } = await interruptCliWhen(
    dir,
    ['render', '.', '--batch', 'rows.json', '--workers', '1', '--output', 'out/{n}.mp4', '--json'],
    /"type":"progress"[^\n]*"row":0/,
  );
  expect(interrupted, `never saw progress; stdout: ${stdout} stderr: ${stderr}`).toBe(true);
  expect(code).toBe(1);
  expect(stderr).toBe('');
  // Nothing of the batch's renders is left in its temp folder.
  expect(await readdir(tmp)).toEqual([]);
  await rm(tmp, { recursive: true, force: true });
  const events = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; row?: number; reason?: string });
  expect(events.find((event) => event.type === 'batch-row-failed')).toMatchObject({ row: 0, error: { code: 'render-cancelled' } });
  expect(events.filter((event) => event.type === 'batch-row-skipped')).toMatchObject([
    { row: 1, reason: 'cancelled' },
    { row: 2, reason: 'cancelled' },
  ]);
  expect(events.at(-1)).toMatchObject({ type: 'batch-complete', cancelled: true, counts: { completed: 0, failed: 1, skipped: 2 } });
  expect(await readdir(path.join(dir, 'out'))).toEqual(['manifest.json']);
  const manifest = JSON.parse(await readFile(path.join(dir, 'out', 'manifest.json'), 'utf8'));
  expect(manifest.status).toBe('cancelled');
  expect(manifest.rows.map((row: { status: string; error: { code: string } }) => [row.status, row.error.code])).toEqual([
    ['failed', 'render-cancelled'],
    ['skipped', 'render-cancelled'],
    ['skipped', 'render-cancelled'],
  ]);
});
