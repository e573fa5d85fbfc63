import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { relativePathProblem, SeekframeError } from '@seekframe/composition';
import { findFfmpeg } from '@seekframe/engine';
import { inside } from '@seekframe/producer';
import type { WaveformInfo } from './studio-types.js';

/** Peaks per second: enough for a block zoomed to a few frames at 60 fps. */
export const WAVEFORM_RATE = 100;
const SAMPLE_RATE = 8000;
/** Sound past this is not drawn (a clip an hour long still answers in a few seconds). */
const MAX_SECONDS = 3600;

/** Loudest absolute sample of each `perSlice` 16-bit samples, 0..1. */
export function peaksOf(pcm: Buffer, perSlice: number): number[] {
  const samples = Math.floor(pcm.length / 2);
  const peaks: number[] = [];
  for (let from = 0; from < samples; from += perSlice) {
    let peak = 0;
    for (let i = from, end = Math.min(samples, from + perSlice); i < end; i++) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i * 2)));
    peaks.push(Math.round((peak / 32768) * 1000) / 1000);
  }
  return peaks;
}

/**
 * The waveform of a media file of the project (`GET waveform?src=`): ffmpeg decodes its first
 * sound track to mono 8 kHz PCM, cut into peaks. Cached per file and modification time.
 */
export function createStudioWaveforms(root: string): (src: string) => Promise<WaveformInfo> {
  const cache = new Map<string, Promise<WaveformInfo>>();
  return async (src) => {
    const problem = relativePathProblem(src);
    const abs = problem ? null : await inside(root, src);
    const info = abs ? await stat(abs).catch(() => null) : null;
    if (!abs || !info?.isFile())
      throw new SeekframeError('not-found', `${JSON.stringify(src.slice(0, 200))} is not a media file of the project.`, { stage: 'media' });
    const key = `${abs}\0${info.mtimeMs}`;
    let result = cache.get(key);
    if (!result) {
      result = decode(abs, src);
      cache.set(key, result);
      result.catch(() => cache.delete(key));
    }
    return result;
  };
}

async function decode(abs: string, src: string): Promise<WaveformInfo> {
  const { ffmpeg } = await findFfmpeg();
  const args = [
    '-v',
    'error',
    '-nostdin',
    '-t',
    String(MAX_SECONDS),
    '-i',
    abs,
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    String(SAMPLE_RATE),
    '-f',
    's16le',
    'pipe:1',
  ];
  const pcm = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()).slice(-2000));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else
        reject(
          new SeekframeError('not-found', `${src} has no sound ffmpeg can read: ${stderr.trim().split('\n').at(-1) ?? `exit ${code}`}`, {
            stage: 'media',
          }),
        );
    });
  });
  return { duration: pcm.length / 2 / SAMPLE_RATE, rate: WAVEFORM_RATE, peaks: peaksOf(pcm, SAMPLE_RATE / WAVEFORM_RATE) };
}
