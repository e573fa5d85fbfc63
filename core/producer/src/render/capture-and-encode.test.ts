import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg, type EncoderOptions } from '@seekframe/engine';
import { adoptOrStartEncoder, startEarlyEncoder } from './capture-and-encode.js';

const run = promisify(execFile);

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
let dir: string;
let ffmpeg: string;
let frame: Buffer;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'seekframe-early-encoder-'));
  ffmpeg = (await findFfmpeg()).ffmpeg;
  frame = (await run(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=s=32x18', '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'mjpeg', 'pipe:1'], { encoding: 'buffer' })).stdout;
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const options = (name: string, extra: Partial<EncoderOptions> = {}): EncoderOptions => ({
  output: path.join(dir, name),
  format: 'mp4',
  width: 32,
  height: 18,
  fps: { num: 10, den: 1 },
  quality: 'draft',
  inputFormat: 'jpeg',
  ffmpeg,
  ...extra,
});

async function encodeThree(encoder: Awaited<ReturnType<typeof adoptOrStartEncoder>>): Promise<string> {
  for (let i = 0; i < 3; i++) await encoder.write(frame);
  const result = await encoder.finish();
  const { stdout } = await run('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames', '-of', 'csv=p=0', result.output]);
  return stdout.trim();
}

describe('the early encoder', () => {
  it('is used when capture wants exactly the options it was started with', async () => {
    const started = startEarlyEncoder(options('same.mp4'));
    // Equal, not the same object: capture builds its options afresh from the sealed plan.
    const encoder = await adoptOrStartEncoder(structuredClone(options('same.mp4')), started);
    expect(encoder).toBe(started.encoder);
    expect(await encodeThree(encoder)).toBe('3');
  });

  it('is killed and its temp output removed when the plan changed its settings; a new ffmpeg encodes', async () => {
    const started = startEarlyEncoder(options('changed.mp4'));
    // The early ffmpeg is running (its temp output beside the target) before capture decides.
    await expect.poll(() => started.encoder.pid, { timeout: 10_000 }).toBeTypeOf('number');
    const earlyPid = started.encoder.pid!;
    const encoder = await adoptOrStartEncoder(options('changed.mp4', { crf: 30 }), started);
    expect(encoder).not.toBe(started.encoder);
    expect(processAlive(earlyPid)).toBe(false);
    expect(await encodeThree(encoder)).toBe('3');
    expect((await readdir(dir)).filter((name) => name.includes('changed.mp4'))).toEqual(['changed.mp4']);
  });
});
