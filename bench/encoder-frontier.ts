/**
 * The encoder's frontier: for each composition, its frames are captured once, losslessly, in the
 * form x264 gets them (canvas capture's I420, BT.709 limited range), then encoded with each x264
 * preset and CRF of a grid. Prints, per setting, ffmpeg's CPU seconds per frame (reading the raw
 * frames subtracted), the output's bytes per frame and its SSIM and PSNR against the lossless
 * frames, per composition and averaged over them. The quality presets (draft/standard/high) are
 * picked from this table; docs/guide/performance.md has it. Nothing here is asserted.
 *
 *   npx tsx bench/encoder-frontier.ts
 *   npx tsx bench/encoder-frontier.ts --dirs bench/compositions/motion-1080p --frames 60 --json
 *   npx tsx bench/encoder-frontier.ts --grid "ultrafast:26,28;veryfast:20,23;medium:18"
 *
 * Encodes run one at a time with ffmpeg's default threads, as a render's encoder does (it shares
 * the cores with the browsers there; CPU seconds are what compares). Uses the built packages.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractCompositionMetadata } from '@seekframe/composition';
import { canvasPixelsFor, findBrowser, renderFramePool, sampleProcessTree } from '@seekframe/engine';
import { createProjectServer, createRuntimeInjector, frameTime, loadRuntimeSource } from '@seekframe/producer';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const dirs = (
  arg('--dirs') ??
  'bench/compositions/motion-1080p,bench/compositions/showcase-1080p,bench/compositions/text-1080p,compositions/ui-3d-reveal'
)
  .split(',')
  .map((dir) => resolve(repoRoot, dir));
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

/** Captures the first frames of a composition as I420 with canvas capture, into one raw file. */
async function captureLossless(projectDir: string, file: string): Promise<{ width: number; height: number; fps: number; frames: number }> {
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
      mode: 'canvas',
      page: {
        url: server.entryUrl,
        width: meta.width,
        height: meta.height,
        imageFormat: 'png',
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

async function measure(projectDir: string, work: string): Promise<Row[]> {
  const name = projectDir.slice(repoRoot.length + 1);
  const raw = join(work, 'frames.yuv');
  log(`${name}: capturing lossless frames`);
  const { width, height, fps, frames } = await captureLossless(projectDir, raw);
  const input = ['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-video_size', `${width}x${height}`, '-framerate', String(fps)];
  // What reading the raw frames costs ffmpeg: subtracted from each encode.
  const reading = (await ffmpegCpu([...input, '-i', raw, '-f', 'null', '-'])).cpu;
  const rows: Row[] = [];
  for (const { preset, crf } of grid) {
    const out = join(work, `${preset}-${crf}.mp4`);
    const { cpu } = await ffmpegCpu([
      ...input,
      '-i',
      raw,
      '-c:v',
      'libx264',
      '-preset',
      preset,
      '-crf',
      String(crf),
      '-pix_fmt',
      'yuv420p',
      '-y',
      out,
    ]);
    const scored = await ffmpeg([
      '-i',
      out,
      ...input,
      '-i',
      raw,
      '-lavfi',
      '[0:v]split[a][b];[1:v]split[c][d];[a][c]ssim;[b][d]psnr',
      '-f',
      'null',
      '-',
    ]);
    const ssim = Number(/SSIM .*All:([\d.]+)/.exec(scored)?.[1]);
    const psnr = Number(/PSNR .*average:([\d.inf]+)/.exec(scored)?.[1]);
    const row = {
      composition: name,
      preset,
      crf,
      cpuMsPerFrame: ((cpu - reading) / frames) * 1000,
      bytesPerFrame: statSync(out).size / frames,
      ssim,
      psnr,
    };
    log(
      `  ${preset} crf ${crf}: ${row.cpuMsPerFrame.toFixed(1)} ms/frame, ${(row.bytesPerFrame / 1024).toFixed(1)} KiB/frame, SSIM ${ssim.toFixed(5)}`,
    );
    rows.push(row);
    rmSync(out, { force: true });
  }
  return rows;
}

const work = mkdtempSync(join(tmpdir(), 'seekframe-frontier-'));
try {
  const rows: Row[] = [];
  for (const dir of dirs) rows.push(...(await measure(dir, work)));
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  if (json) {
    for (const row of rows) console.log(JSON.stringify({ ...row, load }));
  } else {
    const compositions = [...new Set(rows.map((row) => row.composition))];
    console.log(
      `| preset | crf | ${compositions.map((c) => `${c.split('/').pop()} ms/frame, KiB/frame, SSIM`).join(' | ')} | mean ms/frame | mean KiB/frame | mean SSIM |`,
    );
    console.log(`|---|---|${compositions.map(() => '---|').join('')}---|---|---|`);
    for (const { preset, crf } of grid) {
      const mine = rows.filter((row) => row.preset === preset && row.crf === crf);
      const mean = (key: 'cpuMsPerFrame' | 'bytesPerFrame' | 'ssim'): number => mine.reduce((sum, row) => sum + row[key], 0) / mine.length;
      console.log(
        `| ${preset} | ${crf} | ${mine.map((row) => `${row.cpuMsPerFrame.toFixed(1)}, ${(row.bytesPerFrame / 1024).toFixed(1)}, ${row.ssim.toFixed(4)}`).join(' | ')} | ` +
          `${mean('cpuMsPerFrame').toFixed(1)} | ${(mean('bytesPerFrame') / 1024).toFixed(1)} | ${mean('ssim').toFixed(5)} |`,
      );
    }
    console.log(`\n${maxFrames} frames at most per composition, lossless I420 from canvas capture; load average at the end: ${load}.`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
