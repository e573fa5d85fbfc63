import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

/**
 * `seekframe render --format hls / --scale / --captions`: the flags reach the render, and every
 * combination that cannot work is refused before anything starts, naming the flags and the fix.
 */
let dir: string;
const env = { PATH: process.env.PATH, HOME: os.homedir() };

const page = (width: number, height: number, extra = ''): string =>
  `<!doctype html><html data-composition-id="m" data-width="${width}" data-height="${height}" data-duration="0.5" data-fps="10"
 data-composition-variables='[{"id":"transcript","type":"captions","label":"Captions","default":[{"text":"Hi","start":0.1,"end":0.4}]}]'>
<head><style>body{margin:0;background:#123}</style></head><body><div data-captions="transcript" style="color:#fff;font:12px sans-serif"></div>${extra}</body></html>`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-cli-outputs-'));
  await writeFile(path.join(dir, 'index.html'), page(160, 90));
  await writeFile(path.join(dir, 'wide.html'), page(1280, 720));
  await writeFile(path.join(dir, 'odd.html'), page(162, 90));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('the flags reach the render', () => {
  it('without --quiet it names the captions file it wrote', { timeout: 120_000 }, async () => {
    const result = await runCli(
      ['render', '.', '--captions', 'out/said.srt', '--output', 'out/said.mp4', '--quality', 'draft', '--workers', '1'],
      { cwd: dir, env },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/captions out\/said\.srt \(1 cue from "transcript"\)/);
    expect(await readFile(path.join(dir, 'out', 'said.srt'), 'utf8')).toBe('1\n00:00:00,100 --> 00:00:00,400\nHi\n');
  });

  it('--format hls --scale 2 --hls-segment-seconds 1 --captions writes the folder and the sidecar', { timeout: 120_000 }, async () => {
    const result = await runCli(
      [
        'render',
        '.',
        '--format',
        'hls',
        '--scale',
        '2',
        '--hls-segment-seconds',
        '1',
        '--captions',
        'out/subs.vtt',
        '--output',
        'out/stream',
        '--quality',
        'draft',
        '--workers',
        '1',
        '--quiet',
      ],
      { cwd: dir, env },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((await readdir(path.join(dir, 'out', 'stream'))).sort()).toEqual(['index.m3u8', 'segment_00000.ts']);
    const { stdout } = await (await import('node:util')).promisify((await import('node:child_process')).execFile)('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      path.join(dir, 'out', 'stream', 'segment_00000.ts'),
    ]);
    // mpegts lists the stream again under its program: the first line is the stream's.
    expect(stdout.trim().split('\n')[0]).toBe('320,180');
    expect(await readFile(path.join(dir, 'out', 'subs.vtt'), 'utf8')).toBe('WEBVTT\n\n00:00:00.100 --> 00:00:00.400\nHi\n');
  });
});

describe('refused combinations', () => {
  const refused: [string, string[], RegExp][] = [
    [
      'hls into a playlist file',
      ['--format', 'hls', '--output', 'out/stream.m3u8'],
      /--output names a file \(stream\.m3u8\), but hls writes a folder: index\.m3u8 and its segment_NNNNN\.ts files\. Give a folder such as .*out\/stream/,
    ],
    ['an .m3u8 output implies hls, and is refused the same way', ['--output', 'out/x.m3u8'], /hls writes a folder/],
    ['a segment length without hls', ['--hls-segment-seconds', '2'], /--hls-segment-seconds applies to hls only, not mp4/],
    ['a segment length out of range', ['--format', 'hls', '--hls-segment-seconds', '0'], /--hls-segment-seconds must be 1-60 seconds/],
    ['a scale out of range', ['--scale', '8'], /--scale must be 1-4/],
    ['a scale that is not a number', ['--scale', 'big'], /--scale must be a number from 1 to 4/],
    [
      'a scale that gives fractions of a pixel',
      ['--scale', '1.25', 'odd.html'],
      /odd\.html is 162x90; --scale 1\.25 makes it 202\.50x112\.50, which is not a whole number of pixels/,
    ],
    [
      'a scale that makes H.264 odd',
      ['--scale', '1.5', '--format', 'hls', '--output', 'out/never-hls', 'odd.html'],
      /--scale 1\.5 makes it 243x135; hls \(H\.264, yuv420p\) needs an even width and height\. Use a whole --scale/,
    ],
    [
      'a scaled GIF too large',
      ['--scale', '2', '--format', 'gif', 'wide.html'],
      /wide\.html is 1280x720; --scale 2 makes it 2560x1440, and a 256-colour GIF that large/,
    ],
    [
      'a scale past the pixel limit',
      ['--scale', '4', '--max-pixels', '100000'],
      /640x360 = 230400 pixels \(with --scale 4\), more than the limit of 100000 \(--max-pixels\)\. Use a smaller --scale/,
    ],
    ['--captions with a file that is not .srt or .vtt', ['--captions', 'subs.txt'], /--captions must name a \.srt or \.vtt file/],
    [
      '--captions-variable without --captions',
      ['--captions-variable', 'transcript'],
      /--captions-variable chooses the variable of a caption file; give captions/,
    ],
    [
      '--captions-variable naming no captions variable',
      ['--captions', 'a.srt', '--captions-variable', 'title'],
      /--captions-variable title: index\.html declares no variable of type "captions" with that id \(captions variables: transcript\)/,
    ],
  ];
  for (const [what, args, message] of refused) {
    it(what, { timeout: 60_000 }, async () => {
      const entry = args.find((arg) => arg.endsWith('.html'));
      const rest = args.filter((arg) => arg !== entry);
      const result = await runCli(['render', entry ?? '.', ...rest, ...(rest.includes('--output') ? [] : ['--output', 'out/never.mp4'])], {
        cwd: dir,
        env,
      });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toMatch(message);
      expect(
        await readdir(path.join(dir, 'out'))
          .then((names) => names.filter((n) => n.startsWith('never') || n.startsWith('x') || n.startsWith('.')))
          .catch(() => []),
      ).toEqual([]);
    });
  }

  it('--docker with --captions is a usage error with the fix', async () => {
    const result = await runCli(['render', '.', '--docker', '--captions', 'a.srt'], { cwd: dir, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--captions is not written from inside the --docker container yet; render with --captions without --docker/,
    );
  });

  it('lambda render refuses --scale, --captions and --format hls before uploading anything', async () => {
    for (const [args, message] of [
      [
        ['--scale', '2'],
        /--scale is not available on Lambda yet: the render API takes no scale\. Render it on this machine with `seekframe render <dir> --scale 2`/,
      ],
      [['--captions', 'a.srt'], /--captions is not available on Lambda yet/],
      [['--format', 'hls'], /--format hls is not available on Lambda: its segments are cut by one encoder/],
    ] as const) {
      const result = await runCli(['lambda', 'render', '.', ...args], { cwd: dir, env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
    }
  });
});
