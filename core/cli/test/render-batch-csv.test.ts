import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

let dir: string;

// 160x90, 0.1 s at 10 fps: one frame that shows the name it was given.
const html = `<!doctype html>
<html data-composition-id="card" data-width="160" data-height="90" data-duration="0.1" data-fps="10"
  data-composition-variables='[{"id":"name","label":"Name","type":"string","default":"you"},{"id":"score","label":"Score","type":"number","default":0,"min":0,"max":100},{"id":"dark","label":"Dark","type":"boolean","default":false}]'>
<head><style>html,body{margin:0;width:160px;height:90px;background:#123}</style></head>
<body><p id="name" style="color:#fff;font:16px sans-serif"></p>
<script>document.getElementById('name').textContent = window.__seekframe.getVariables().name ?? 'you';</script></body>
</html>
`;

const env = { PATH: process.env.PATH, HOME: os.homedir() };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-batch-csv-'));
  await mkdir(path.join(dir, 'card'));
  await writeFile(path.join(dir, 'card', 'index.html'), html);
  // A quoted cell with a comma, an empty cell (the default applies), a BOM as spreadsheets write it.
  await writeFile(path.join(dir, 'people.csv'), '\uFEFFname,score,dark\n"Lovelace, Ada",97,yes\nLinus,,no\n');
  await writeFile(path.join(dir, 'out-of-range.csv'), 'name,score\nAda,250\n');
  await writeFile(path.join(dir, 'broken.csv'), 'name,score\n"Ada,97\n');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('seekframe render --batch rows.csv', () => {
  it('renders one video per line, each cell as the type its variable declares', async () => {
    const result = await runCli(['render', 'card', '--batch', 'people.csv', '--output', 'renders/{index}.mp4', '--quiet'], {
      cwd: dir,
      env,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const manifest = JSON.parse(await readFile(path.join(dir, 'renders', 'manifest.json'), 'utf8')) as {
      rows: Array<{ index: number; status: string; variables: Record<string, unknown> }>;
    };
    expect(manifest.rows.map((row) => [row.index, row.status, row.variables])).toEqual([
      [0, 'completed', { name: 'Lovelace, Ada', score: 97, dark: true }],
      [1, 'completed', { name: 'Linus', dark: false }],
    ]);
  });

  it('a cell outside its declared range is refused under --strict-variables, naming the row', async () => {
    const result = await runCli(['render', 'card', '--batch', 'out-of-range.csv', '--strict-variables', '--quiet'], { cwd: dir, env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/out-of-range\.csv cannot be rendered \(1 bad row\)/);
    expect(result.stderr).toMatch(/row 0: .*score/);
  });

  it('a malformed file is invalid-batch with its line, and nothing renders', async () => {
    const result = await runCli(['render', 'card', '--batch', 'broken.csv', '--output', 'broken/{index}.mp4', '--json'], { cwd: dir, env });
    expect(result.code).not.toBe(0);
    const error = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('invalid-batch');
    expect(error.error.message).toMatch(/broken\.csv is not valid CSV/);
    await expect(readFile(path.join(dir, 'broken', 'manifest.json'))).rejects.toThrow();
  });
});
