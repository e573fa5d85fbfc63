import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const run = promisify(execFile);
let dir: string;

// 160x90, 0.2 s at 10 fps: two frames; `logo` names an image the page loads (a missing one 404s).
const html = `<!doctype html>
<html data-composition-id="promo" data-width="160" data-height="90" data-duration="0.2" data-fps="10"
  data-composition-variables='[{"id":"title","label":"Title","type":"string","default":"x"},{"id":"logo","label":"Logo","type":"string","default":"logo.png"}]'>
<head><style>html,body{margin:0;width:160px;height:90px;background:#123}</style></head>
<body><script>const img = document.createElement('img'); img.src = window.__seekframe.getVariables().logo ?? 'logo.png'; document.body.append(img);</script></body>
</html>
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-batch-'));
  await mkdir(path.join(dir, 'promo'));
  await writeFile(path.join(dir, 'promo', 'index.html'), html);
  await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=blue:s=8x8', '-frames:v', '1', path.join(dir, 'promo', 'logo.png')]);
  await writeFile(
    path.join(dir, 'rows.json'),
    JSON.stringify({ rows: [{ title: 'A' }, { title: 'B', logo: 'gone.png' }, { title: 'C' }] }),
  );
  await writeFile(
    path.join(dir, 'bad-rows.json'),
    JSON.stringify([{ title: 'A' }, { title: { x: 1 } }, { logo: 'l.png' }, { title: 'A' }]),
  );
  await writeFile(path.join(dir, 'broken.json'), '[{"title": ');
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const env = { PATH: process.env.PATH, HOME: os.homedir() };
type Event = { type: string; row?: number; [key: string]: unknown };

function lines(stdout: string): Event[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Event);
}

describe('seekframe render --batch', () => {
  it('--json: one event per line; a row whose asset 404s fails, the others finish, exit 1', async () => {
    const result = await runCli(['render', 'promo', '--batch', 'rows.json', '--batch-concurrency', '2', '--json'], { cwd: dir, env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const events = lines(result.stdout);
    const renders = path.join(dir, 'renders');
    expect(events[0]).toEqual({
      type: 'batch-start',
      total: 3,
      concurrency: 2,
      workersPerRow: 1,
      manifest: path.join(renders, 'manifest.json'),
    });
    expect(events.at(-1)).toMatchObject({
      type: 'batch-complete',
      counts: { total: 3, completed: 2, failed: 1, skipped: 0, resumed: 0 },
      cancelled: false,
    });
    for (const event of events.slice(1, -1)) {
      // Every event in between belongs to a row.
      expect(typeof event.row).toBe('number');
      expect(['batch-row-start', 'stage', 'progress', 'warning', 'batch-row-complete', 'batch-row-failed']).toContain(event.type);
    }
    for (const row of [0, 2]) {
      const own = events.filter((event) => event.row === row);
      expect(own[0]).toMatchObject({ type: 'batch-row-start', output: path.join(renders, `promo-${row}.mp4`) });
      expect(own.filter((event) => event.type === 'stage').map((event) => event.stage)).toEqual([
        'lint',
        'load',
        'variables',
        'serve',
        'media',
        'capture',
        'finish',
      ]);
      expect(own.find((event) => event.type === 'progress' && event.framesRendered === 2)).toMatchObject({ totalFrames: 2, percent: 100 });
      expect(own.at(-1)).toMatchObject({ type: 'batch-row-complete', output: path.join(renders, `promo-${row}.mp4`) });
    }
    expect(events.filter((event) => event.row === 1).at(-1)).toMatchObject({
      type: 'batch-row-failed',
      error: { code: 'asset-not-found' },
    });

    expect((await readdir(renders)).sort()).toEqual(['manifest.json', 'promo-0.mp4', 'promo-2.mp4']);
    for (const file of ['promo-0.mp4', 'promo-2.mp4']) {
      const probe = await run('ffprobe', [
        '-v',
        'error',
        '-count_frames',
        '-show_entries',
        'stream=codec_name,nb_read_frames',
        '-of',
        'json',
        path.join(renders, file),
      ]);
      expect(JSON.parse(probe.stdout).streams[0], file).toMatchObject({ codec_name: 'h264', nb_read_frames: '2' });
    }
    const manifest = JSON.parse(await readFile(path.join(renders, 'manifest.json'), 'utf8'));
    expect(manifest.batchFile).toBe(path.join(dir, 'rows.json'));
    expect(manifest.rows.map((row: { status: string }) => row.status)).toEqual(['completed', 'failed', 'completed']);

    // --batch-resume keeps rows 0 and 2, retries row 1 (still failing); human output names each row.
    const again = await runCli(['render', 'promo', '--batch', 'rows.json', '--batch-resume'], { cwd: dir, env });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/kept row 0 renders\/promo-0\.mp4 \(completed earlier\)/);
    expect(again.stdout).toMatch(/kept row 2 renders\/promo-2\.mp4/);
    expect(again.stdout).toMatch(/batch incomplete 2\/3 completed \(2 kept\), 1 failed, 0 skipped; manifest renders\/manifest\.json/);
    expect(again.stderr).toMatch(/failed row 1 renders\/promo-1\.mp4: .*gone\.png/);
  });

  it('a bad batch renders nothing and lists every bad row (text and --json)', async () => {
    const text = await runCli(['render', 'promo', '--batch', 'bad-rows.json', '--output', 'bad/{title}.mp4'], { cwd: dir, env });
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/bad-rows\.json cannot be rendered \(3 bad rows\)/);
    expect(text.stderr).toMatch(/row 1: "title" is an object/);
    expect(text.stderr).toMatch(/row 2: has no "title"/);
    expect(text.stderr).toMatch(/row 3: writes .*bad\/A\.mp4, like row 0/);
    expect(await readdir(path.join(dir, 'bad')).catch(() => 'absent')).toBe('absent');

    const json = await runCli(['render', 'promo', '--batch', 'bad-rows.json', '--output', 'bad/{title}.mp4', '--json'], { cwd: dir, env });
    expect(json.code).toBe(1);
    const events = lines(json.stdout);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'error',
      error: { code: 'invalid-batch', details: { problems: [{ index: 1 }, { index: 2 }, { index: 3 }] } },
    });

    const broken = await runCli(['render', 'promo', '--batch', 'broken.json', '--json'], { cwd: dir, env });
    expect(lines(broken.stdout)).toEqual([
      {
        type: 'error',
        error: expect.objectContaining({ code: 'invalid-batch', message: expect.stringMatching(/broken\.json is not valid JSON/) }),
      },
    ]);
  });

  it('rejects batch flags that do not fit, naming them', async () => {
    const both = await runCli(['render', 'promo', '--batch', 'rows.json', '--variables', '{}'], { cwd: dir, env });
    expect(both.code).toBe(2); // a usage error (invalid-options)
    expect(both.stderr).toMatch(/--batch and --variables\/--variables-file exclude each other/);
    expect((await runCli(['render', 'promo', '--batch-resume'], { cwd: dir, env })).stderr).toMatch(
      /--batch-resume only applies with --batch/,
    );
    expect((await runCli(['render', 'promo', '--batch', 'rows.json', '--batch-concurrency', 'many'], { cwd: dir, env })).stderr).toMatch(
      /--batch-concurrency must be a whole number/,
    );
    expect((await runCli(['render', 'promo', '--batch', 'rows.json', '--batch-concurrency', '99'], { cwd: dir, env })).stderr).toMatch(
      /--batch-concurrency must be 1-16/,
    );
    expect((await runCli(['render', 'promo', '--batch', 'missing.json'], { cwd: dir, env })).stderr).toMatch(
      /--batch cannot read .*missing\.json \(ENOENT\)/,
    );
  });
});
