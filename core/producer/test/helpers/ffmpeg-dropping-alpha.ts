import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findFfmpeg } from '@seekframe/engine';

/**
 * An `ffmpeg` that is the real one, told to encode without alpha: every `yuva…` pixel format on
 * its command line becomes the same format without the `a`. A render given it (the render
 * context's `ffmpeg`) writes a webm or mov whose container still claims alpha and whose frames
 * have none: the failure the decode-level alpha check exists for.
 */
export async function ffmpegDroppingAlpha(dir: string): Promise<{ ffmpeg: string; ffprobe: string }> {
  const real = await findFfmpeg();
  const wrapper = path.join(dir, 'ffmpeg-dropping-alpha');
  await writeFile(
    wrapper,
    `#!${process.execPath}
const { spawn } = require('node:child_process');
const args = process.argv.slice(2).map((arg) => (/^yuva/.test(arg) ? arg.replace(/^yuva/, 'yuv') : arg));
const child = spawn(${JSON.stringify(real.ffmpeg)}, args, { stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill('SIGKILL'));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
`,
  );
  await chmod(wrapper, 0o755);
  return { ffmpeg: wrapper, ffprobe: real.ffprobe };
}
