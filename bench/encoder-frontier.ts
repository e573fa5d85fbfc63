/**
 * The encoder's frontier: for each composition, its frames are captured once, losslessly, in the
 * form x264 gets them (canvas capture's I420, BT.709 limited range), then encoded with each x264
 * preset and CRF of a grid, through the render's own ffmpeg arguments. Prints, per setting,
 * ffmpeg's CPU seconds per frame (reading the raw frames subtracted), the output's bytes per
 * frame and its SSIM and PSNR against the lossless frames, per composition and averaged over them.
 *
 * Beside the grid, the references a level must match: the same frames captured as beginframe's
 * JPEG 90 and encoded with the settings `draft` and `standard` had before canvas capture (x264
 * ultrafast 28 and medium 18), scored against the same lossless frames: the quality and bytes a
 * JPEG-capture pipeline gives (HyperFrames' is one). The quality presets (draft/standard/high,
 * encoder-options.ts) are picked from this table; docs/guide/performance.md has it. Nothing here
 * is asserted.
 *
 *   npx tsx bench/encoder-frontier.ts                  # four bench compositions and the peer benchmark's (peers-1080p)
 *   npx tsx bench/encoder-frontier.ts --dirs bench/compositions/motion-1080p --frames 60 --json
 *   npx tsx bench/encoder-frontier.ts --grid "ultrafast:26,28;veryfast:20,23;medium:18"
 *   npx tsx bench/encoder-frontier.ts --grid "ultrafast/aq-mode=2:28"   # a preset with x264 options
 *
 * Encodes run one at a time with the render's thread settings (it shares the cores with the
 * browsers there; CPU seconds are what compares). Uses the built packages.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCompositionMetadata } from '@seekframe/composition';
import {
  buildEncoderArgs,
  canvasPixelsFor,
  DEFAULT_JPEG_QUALITY,
  findBrowser,
  renderFramePool,
  sampleProcessTree,
} from '@seekframe/engine';
import { peerHtml } from './peers/composition.js';
import { createProjectServer, createRuntimeInjector, frameTime, loadRuntimeSource } from '@seekframe/producer';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dirs = (
  arg('--dirs') ??
  'bench/compositions/motion-1080p,bench/compositions/showcase-1080p,bench/compositions/text-1080p,compositions/ui-3d-reveal,peers'
)
  .split(',')
  .map((dir) => (dir === 'peers' ? dir : resolve(repoRoot, dir)));
/** Today's beginframe pipelines (JPEG 90 frames), the bar for each level. */
const REFERENCES = [
  { label: 'beginframe draft', preset: 'ultrafast', crf: 28 },
  { label: 'beginframe standard', preset: 'medium', crf: 18 },
];
const maxFrames = Number(arg('--frames') ?? 90);
const json = process.argv.includes('--json');
const grid = (arg('--grid') ?? 'ultrafast:23,26,28;superfast:23,26;veryfast:18,20,23,26;faster:18,20,23;medium:16,18,20,23;slow:15,18')
  .split(';')
  .flatMap((entry) => {
    const [preset, crfs] = entry.split(':');
    return crfs!.split(',').map((crf) => ({ preset: preset!, crf: Number(crf) }));
  });
const log = (line: string): void => void (json ? undefined : console.error(line));

interface Row {
  composition: string;
  preset: string;
  crf: number;
  cpuMsPerFrame: number;
  bytesPerFrame: number;
  ssim: number;
  psnr: number;
}

/** Runs ffmpeg and resolves with its stderr; rejects on a non-zero exit. */
function ffmpeg(args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise(stderr) : reject(new Error(`ffmpeg ${args.join(' ')} exited ${code}: ${stderr.slice(-500)}`)),
    );
  });
}

/** ffmpeg's CPU seconds for one run (the sampler counts reaped children). */
async function ffmpegCpu(args: string[]): Promise<{ cpu: number; stderr: string }> {
  const stop = sampleProcessTree(50);
  const stderr = await ffmpeg(args);
  return { cpu: stop().cpuSeconds.ffmpeg, stderr };
}

/**
 * Captures the first frames of a composition into one file: canvas capture's I420 (what x264
 * gets from canvas capture: the lossless reference) or beginframe's JPEG 90 frames, back to back
 * (what ffmpeg got before canvas capture, and still gets where canvas capture cannot draw).
 */
async function captureFrames(
  projectDir: string,
  file: string,
  mode: 'canvas' | 'beginframe',
): Promise<{ width: number; height: number; fps: number; frames: number }> {
  const entry = join(projectDir, 'index.html');
  const meta = extractCompositionMetadata(readFileSync(entry, 'utf8'), { file: entry });
  const fps = meta.fps ?? 30;
  const total = Math.min(maxFrames, Math.round(meta.duration * fps));
  const server = await createProjectServer({
    root: projectDir,
    entry: 'index.html',
    prepareHtml: createRuntimeInjector({ runtimeSource: await loadRuntimeSource(), mode: 'render', fps, seed: 1, epochMs: 0 }),
  });
  const frames: Buffer[] = [];
  try {
    await renderFramePool({
      browser: await findBrowser(),
      workers: 1,
      mode,
      page: {
        url: server.entryUrl,
        width: meta.width,
        height: meta.height,
        imageFormat: 'jpeg',
        jpegQuality: DEFAULT_JPEG_QUALITY,
        transparent: false,
        readyTimeoutMs: 30_000,
        canvasPixels: canvasPixelsFor({ yuv420: true, width: meta.width, height: meta.height }),
      },
      times: Array.from({ length: total }, (_, i) => frameTime(i, { num: fps, den: 1 })),
      onFrame: (i, frame) => void (frames[i] = frame),
    });
  } finally {
    await server.close();
  }
  writeFileSync(file, Buffer.concat(frames));
  return { width: meta.width, height: meta.height, fps, frames: total };
}

/**
 * The render's own ffmpeg arguments (buildEncoderArgs: filters, threads, tags) for frames read
 * from `input` instead of stdin, with the preset and CRF of a grid setting in place of the level's.
 */
function encoderArgs(
  size: { width: number; height: number; fps: number },
  inputFormat: 'i420' | 'jpeg',
  input: string,
  setting: { preset: string; crf: number },
  out: string,
): string[] {
  const args = buildEncoderArgs(
    {
      format: 'mp4',
      output: out,
      width: size.width,
      height: size.height,
      fps: { num: size.fps, den: 1 },
      inputFormat,
      quality: 'standard',
    },
    out,
  );
  const patched = [...args];
  patched[patched.indexOf('pipe:0')] = input;
  // `preset/x264-params` in the grid: a preset with extra x264 options (e.g. ultrafast/aq-mode=2).
  const [preset, params] = setting.preset.split('/');
  patched[patched.indexOf('-preset') + 1] = preset!;
  if (params) patched.splice(patched.indexOf('-preset') + 2, 0, '-x264-params', params);
  patched[patched.indexOf('-crf') + 1] = String(setting.crf);
  // The render reads stdin only (a protocol whitelist of `pipe`); here the input is a file.
  const whitelist = patched.indexOf('-protocol_whitelist');
  if (whitelist >= 0) patched.splice(whitelist, 2);
  return patched.filter((arg) => arg !== '-loglevel' && arg !== 'error');
}

/** SSIM and PSNR of an encoded file against the lossless raw frames. */
async function score(out: string, rawInput: string[], raw: string): Promise<{ ssim: number; psnr: number }> {
  const scored = await ffmpeg([
    '-i',
    out,
    ...rawInput,
    '-i',
    raw,
    '-lavfi',
    '[0:v]split[a][b];[1:v]split[c][d];[a][c]ssim;[b][d]psnr',
    '-f',
    'null',
    '-',
  ]);
  return { ssim: Number(/SSIM .*All:([\d.]+)/.exec(scored)?.[1]), psnr: Number(/PSNR .*average:([\d.inf]+)/.exec(scored)?.[1]) };
}

async function measure(projectDir: string, work: string): Promise<Row[]> {
  const name = projectDir.startsWith(repoRoot) ? projectDir.slice(repoRoot.length + 1) : 'peers-1080p';
  const raw = join(work, 'frames.yuv');
  const jpegs = join(work, 'frames.mjpeg');
  log(`${name}: capturing lossless frames (canvas) and JPEG 90 frames (beginframe)`);
  const size = await captureFrames(projectDir, raw, 'canvas');
  await captureFrames(projectDir, jpegs, 'beginframe');
  const { width, height, fps, frames } = size;
  const rawInput = ['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-video_size', `${width}x${height}`, '-framerate', String(fps)];
  // What reading the raw frames costs ffmpeg: subtracted from each encode of them (a render pays
  // it too, but it is the same for every setting: ~1.7 ms a 1080p frame).
  const reading = (await ffmpegCpu([...rawInput, '-i', raw, '-f', 'null', '-'])).cpu;
  const rows: Row[] = [];
  const settings = [
    ...REFERENCES.map((reference) => ({ ...reference, input: 'jpeg' as const })),
    ...grid.map((setting) => ({ ...setting, input: 'i420' as const, label: undefined })),
  ];
  for (const setting of settings) {
    const out = join(work, `${setting.preset.replace(/\W+/g, '_')}-${setting.crf}-${setting.input}.mp4`);
    const source = setting.input === 'jpeg' ? jpegs : raw;
    const { cpu } = await ffmpegCpu(encoderArgs(size, setting.input, source, setting, out));
    const { ssim, psnr } = await score(out, rawInput, raw);
    const row: Row = {
      composition: name,
      preset: setting.label ?? setting.preset,
      crf: setting.crf,
      // JPEG input: its decode is part of that pipeline's cost, so nothing is subtracted.
      cpuMsPerFrame: ((cpu - (setting.input === 'jpeg' ? 0 : reading)) / frames) * 1000,
      bytesPerFrame: statSync(out).size / frames,
      ssim,
      psnr,
    };
    log(
      `  ${row.preset} crf ${row.crf}: ${row.cpuMsPerFrame.toFixed(1)} ms/frame, ${(row.bytesPerFrame / 1024).toFixed(1)} KiB/frame, SSIM ${ssim.toFixed(5)}`,
    );
    rows.push(row);
    rmSync(out, { force: true });
  }
  return rows;
}

const work = mkdtempSync(join(tmpdir(), 'seekframe-frontier-'));
try {
  const rows: Row[] = [];
  for (const dir of dirs) {
    if (dir !== 'peers') {
      rows.push(...(await measure(dir, work)));
      continue;
    }
    // The peer benchmark's composition (bench/peers), at 1080p30.
    const peerDir = join(work, 'peers-1080p');
    mkdirSync(peerDir);
    writeFileSync(join(peerDir, 'index.html'), peerHtml({ width: 1920, height: 1080, fps: 30, duration: 10 }));
    rows.push(...(await measure(peerDir, work)));
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  if (json) {
    for (const row of rows) console.log(JSON.stringify({ ...row, load }));
  } else {
    const compositions = [...new Set(rows.map((row) => row.composition))];
    console.log(
      `| preset | crf | ${compositions.map((c) => `${c.split('/').pop()} ms/frame, KiB/frame, SSIM`).join(' | ')} | mean ms/frame | mean KiB/frame | mean SSIM |`,
    );
    console.log(`|---|---|${compositions.map(() => '---|').join('')}---|---|---|`);
    for (const { preset, crf } of [...REFERENCES.map(({ label, crf }) => ({ preset: label, crf })), ...grid]) {
      const mine = rows.filter((row) => row.preset === preset && row.crf === crf);
      const mean = (key: 'cpuMsPerFrame' | 'bytesPerFrame' | 'ssim'): number => mine.reduce((sum, row) => sum + row[key], 0) / mine.length;
      console.log(
        `| ${preset} | ${crf} | ${mine.map((row) => `${row.cpuMsPerFrame.toFixed(1)}, ${(row.bytesPerFrame / 1024).toFixed(1)}, ${row.ssim.toFixed(4)}`).join(' | ')} | ` +
          `${mean('cpuMsPerFrame').toFixed(1)} | ${(mean('bytesPerFrame') / 1024).toFixed(1)} | ${mean('ssim').toFixed(5)} |`,
      );
    }
    console.log(
      `\n${maxFrames} frames at most per composition, lossless I420 from canvas capture; references: beginframe's JPEG 90 frames; load average at the end: ${load}.`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
