import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoPsnr } from '../src/media/compare-videos.js';
import { createFrameEncoder } from '../src/encode/create-frame-encoder.js';
import { extractHdrLayers } from '../src/media/extract-hdr-layers.js';
import { extractVideoFrames } from '../src/media/extract-video-frames.js';
import { mixAudio } from '../src/media/mix-audio.js';
import { probeHardwareEncoder } from '../src/encode/probe-hardware-encoder.js';
import { probeHdrMetadata } from '../src/media/probe-hdr-metadata.js';
import { probeMedia } from '../src/media/probe-media.js';
import { ff, pngFrames, sineAudio, tempDir } from './media-fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;
let log: string;
let ffmpeg: string;
let ffprobe: string;
let clip: string;
let tone: string;

/** A wrapper that records its argv (fields split by 0x1f, calls by 0x1e) and runs the real tool. */
async function recorder(name: 'ffmpeg' | 'ffprobe'): Promise<string> {
  const file = path.join(dir, `record-${name}`);
  await writeFile(
    file,
    `#!/bin/sh\n{ printf '%s\\037' ${name}; for a in "$@"; do printf '%s\\037' "$a"; done; printf '\\036'; } >> '${log}'\nexec ${name} "$@"\n`,
  );
  await chmod(file, 0o755);
  return file;
}

async function recordedCalls(): Promise<string[][]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\x1e')
    .filter(Boolean)
    .map((call) => call.split('\x1f').slice(0, -1));
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('sf-whitelist-'));
  log = path.join(dir, 'calls.log');
  ffmpeg = await recorder('ffmpeg');
  ffprobe = await recorder('ffprobe');
  clip = path.join(dir, 'clip.mp4');
  await ff(['-f', 'lavfi', '-i', 'color=c=red:s=32x32:r=10:d=0.5', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', clip]);
  tone = await sineAudio(path.join(dir, 'tone.m4a'), 0.5);
});
afterAll(async () => cleanup());

/**
 * The whitelist must come before every input it guards: ffmpeg resets input options after each
 * `-i`, so one whitelist at the front would leave a second input unguarded.
 */
function unguardedInputs(argv: string[]): string[] {
  const unguarded: string[] = [];
  let guarded = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '-protocol_whitelist') guarded = true;
    if (argv[i] === '-i') {
      if (!guarded) unguarded.push(argv[i + 1] ?? '');
      guarded = false;
    }
  }
  return unguarded;
}

describe('every engine ffmpeg/ffprobe call names the protocols it may use', () => {
  it('probe, extract, mix, encode (with audio), compare, the HDR probe and layers, and the hardware probe', async () => {
    await writeFile(log, '');
    const probe = await probeMedia(clip, { ffprobe });
    await extractVideoFrames(clip, path.join(dir, 'frames'), { fps: 10, format: 'jpg', probe, ffmpeg });
    const mixed = await mixAudio([{ file: tone, start: 0, duration: 0.5 }], 0.5, path.join(dir, 'mix.m4a'), 'aac', { ffmpeg });
    const encoder = createFrameEncoder({
      format: 'mp4',
      output: path.join(dir, 'out.mp4'),
      width: 32,
      height: 32,
      fps: { num: 10, den: 1 },
      quality: 'draft',
      inputFormat: 'png',
      audio: mixed.output,
      ffmpeg,
    });
    for (const frame of pngFrames(3, 32, 32)) await encoder.write(frame);
    const encoded = await encoder.finish();
    await videoPsnr(encoded.output, encoded.output, ffmpeg);
    await probeHardwareEncoder({ ffmpeg, fresh: true });
    await probeHdrMetadata(clip, { ffprobe });
    // Only the command line matters here; an SDR clip through the HDR graph may or may not succeed.
    await extractHdrLayers(clip, path.join(dir, 'hdr'), { fps: { num: 10, den: 1 }, peak: 2, ffmpeg }).catch(() => undefined);

    const calls = await recordedCalls();
    // Listing calls (`-encoders`, `-version`) open no input at all; every other call does.
    const listing = calls.filter((argv) => argv.includes('-encoders') || argv.includes('-version'));
    const opening = calls.filter((argv) => !listing.includes(argv));
    expect(listing.every((argv) => !argv.includes('-i'))).toBe(true);
    // probe, extract, mix, encode, compare, HDR probe, HDR layers: at least these seven open
    // inputs (the hardware probe adds more when an encoder is built in).
    expect(opening.length).toBeGreaterThanOrEqual(7);
    expect(opening.filter((argv) => argv[0] === 'ffprobe')).toHaveLength(2);
    for (const argv of opening) {
      expect(argv, argv.join(' ')).toContain('-protocol_whitelist');
      if (argv[0] === 'ffmpeg') expect(unguardedInputs(argv), argv.join(' ')).toEqual([]);
    }
    // Sources the page chose are also limited to ordinary media containers.
    const sourceReads = opening.filter((argv) => argv.includes(clip) || argv.includes(tone));
    expect(sourceReads).toHaveLength(5);
    for (const argv of sourceReads) expect(argv).toContain('-format_whitelist');
  });
});

describe('what the whitelists refuse', () => {
  it('ffprobe refuses concat:, subfile: and tcp: sources, and an HLS playlist that names a file elsewhere', async () => {
    for (const source of [`concat:${clip}|${clip}`, `subfile,,start,0,end,100,,:${clip}`, 'tcp://127.0.0.1:9/']) {
      await expect(probeMedia(source), source).rejects.toMatchObject({ code: 'media-probe-failed' });
    }
    const playlist = path.join(dir, 'list.m3u8');
    await writeFile(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:0.5,\n${clip}\n#EXT-X-ENDLIST\n`);
    await expect(probeMedia(playlist)).rejects.toThrow(/not on whitelist/);
  });

  it('extractVideoFrames and mixAudio refuse a concat: source', async () => {
    const probe = await probeMedia(clip);
    await expect(
      extractVideoFrames(`concat:${clip}|${clip}`, path.join(dir, 'concat-frames'), { fps: 10, format: 'jpg', probe }),
    ).rejects.toMatchObject({ code: 'video-extract-failed' });
    await expect(
      mixAudio([{ file: `concat:${tone}|${tone}`, start: 0, duration: 0.5 }], 0.5, path.join(dir, 'concat.m4a'), 'aac'),
    ).rejects.toMatchObject({ code: 'audio-mix-failed' });
  });
});
