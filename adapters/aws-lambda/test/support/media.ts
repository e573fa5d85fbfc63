import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const WIDTH = 160;
export const HEIGHT = 90;

/**
 * A 160x90 composition whose every frame paints its own index as 8 black/white blocks (bit 7
 * first) and that carries a chirp starting between frames and between AAC packets, so a seam
 * that shifts frames or audio cannot hide.
 */
export async function seamProject(opts: {
  seconds: number;
  fps: number;
  toneStart?: number;
  audio?: boolean;
}): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-lambda-seams-'));
  const toneStart = opts.toneStart ?? 0.37;
  const blocks = Array.from(
    { length: 8 },
    (_, b) => `<div class="bit" style="position:absolute;left:${b * 20}px;top:0;width:20px;height:60px;background:#000"></div>`,
  ).join('');
  const html = `<!doctype html>
<html data-composition-id="seams" data-width="${WIDTH}" data-height="${HEIGHT}" data-duration="${opts.seconds}" data-fps="${opts.fps}">
<head><style>html,body{margin:0;width:${WIDTH}px;height:${HEIGHT}px;background:#204060;overflow:hidden}</style></head>
<body>${blocks}
<div style="position:absolute;left:0;bottom:0;width:${WIDTH}px;height:10px;background:#c08020"></div>
${opts.audio === false ? '' : `<audio src="tone.wav" data-start="${toneStart}" data-duration="${opts.seconds - toneStart - 0.2}"></audio>`}
<script>
  const bits = [...document.querySelectorAll('.bit')];
  window.__seekframe.onSeek((t) => {
    const index = Math.round(t * window.__seekframe.fps);
    bits.forEach((el, b) => { el.style.background = (index >> (7 - b)) & 1 ? '#fff' : '#000'; });
  });
</script>
</body>
</html>
`;
  await writeFile(path.join(dir, 'index.html'), html);
  // A rising chirp: its cross-correlation has one sharp peak, so a lag of one sample shows.
  await run('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc=0.5*sin(2*PI*(300*t+400*t*t)):s=48000:d=${opts.seconds}`,
    '-c:a',
    'pcm_s16le',
    path.join(dir, 'tone.wav'),
  ]);
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The index each decoded frame paints. */
export async function frameIndexes(file: string): Promise<number[]> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 256 << 20,
  });
  const size = WIDTH * HEIGHT * 3;
  const indexes: number[] = [];
  for (let offset = 0; offset + size <= stdout.length; offset += size) {
    let index = 0;
    for (let b = 0; b < 8; b++) {
      const i = offset + (30 * WIDTH + b * 20 + 10) * 3;
      index = (index << 1) | ((stdout[i]! + stdout[i + 1]! + stdout[i + 2]!) / 3 > 128 ? 1 : 0);
    }
    indexes.push(index);
  }
  return indexes;
}

export async function videoPackets(file: string): Promise<{ pts: number; key: boolean }[]> {
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'json', file],
    { maxBuffer: 16 << 20 },
  );
  return (JSON.parse(stdout) as { packets: { pts_time: string; flags: string }[] }).packets
    .map((p) => ({ pts: Number(p.pts_time), key: p.flags.includes('K') }))
    .sort((a, b) => a.pts - b.pts);
}

export async function streamTypes(file: string): Promise<string[]> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'json', file]);
  return (JSON.parse(stdout) as { streams: { codec_type: string }[] }).streams.map((s) => s.codec_type);
}

/** Mono 48 kHz samples of a file's audio. */
export async function audioSamples(file: string): Promise<Int16Array> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', file, '-vn', '-ac', '1', '-ar', '48000', '-f', 's16le', 'pipe:1'], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  return new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2));
}

/** The lag (in samples, -max..max) at which `b` best matches `a`. */
export function bestLag(a: Int16Array, b: Int16Array, max = 200): number {
  const n = Math.min(a.length, b.length) - 2 * max;
  let best = 0;
  let bestScore = -Infinity;
  for (let lag = -max; lag <= max; lag++) {
    let score = 0;
    for (let i = max; i < n; i += 2) score += a[i]! * b[i + lag]!;
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  return best;
}

export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  await mkdir(dir, { recursive: true });
  return dir;
}
