import { SeekframeError } from '@seekframe/composition';
import { findOnPath, isExecutableFile } from './find-executable.js';
import { installCommand } from './install-hint.js';
import { runProcess } from './run-process.js';

export const CHECKED_ENCODERS = ['libx264', 'libvpx-vp9', 'prores_ks', 'gif', 'aac', 'libopus', 'png'] as const;
export type CheckedEncoder = (typeof CHECKED_ENCODERS)[number];

export interface FfmpegInfo {
  ffmpeg: string;
  ffprobe: string;
  /** e.g. `5.1.9-0+deb12u1` */
  version: string;
  encoders: Record<CheckedEncoder, boolean>;
}

const cache = new Map<string, Promise<FfmpegInfo>>();

/** Finds ffmpeg and ffprobe (SEEKFRAME_FFMPEG / SEEKFRAME_FFPROBE, else PATH) and lists encoders. */
export function findFfmpeg(options: { env?: NodeJS.ProcessEnv } = {}): Promise<FfmpegInfo> {
  const env = options.env ?? process.env;
  const key = `${env.SEEKFRAME_FFMPEG ?? ''}\0${env.SEEKFRAME_FFPROBE ?? ''}\0${env.PATH ?? ''}`;
  let result = cache.get(key);
  if (!result) {
    result = discover(env);
    cache.set(key, result);
    // A failure may be fixed while the process runs (doctor, then install): do not cache it.
    result.catch(() => cache.delete(key));
  }
  return result;
}

async function discover(env: NodeJS.ProcessEnv): Promise<FfmpegInfo> {
  const ffmpeg = await locate('ffmpeg', env.SEEKFRAME_FFMPEG, 'SEEKFRAME_FFMPEG', env);
  const ffprobe = await locate('ffprobe', env.SEEKFRAME_FFPROBE, 'SEEKFRAME_FFPROBE', env);
  const versionRun = await runProcess(ffmpeg, ['-hide_banner', '-version'], { timeoutMs: 15_000 }).catch(() => null);
  if (!versionRun || versionRun.code !== 0) throw notFound(`${ffmpeg} does not run (\`-version\` failed).`);
  const encodersRun = await runProcess(ffmpeg, ['-hide_banner', '-encoders'], { timeoutMs: 15_000 });
  return { ffmpeg, ffprobe, version: parseFfmpegVersion(versionRun.stdout), encoders: parseEncoders(encodersRun.stdout) };
}

async function locate(name: string, fromEnv: string | undefined, envName: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (fromEnv) {
    if (await isExecutableFile(fromEnv)) return fromEnv;
    throw notFound(`${envName} points to ${fromEnv}, which is not an executable file.`);
  }
  const onPath = await findOnPath(name, env.PATH ?? '');
  if (!onPath) throw notFound(`${name} was not found on PATH.`);
  return onPath;
}

function notFound(first: string): SeekframeError {
  return new SeekframeError(
    'ffmpeg-not-found',
    `${first} Seekframe encodes with ffmpeg from your system: install it with \`${installCommand('ffmpeg')}\`, ` +
      'or set SEEKFRAME_FFMPEG and SEEKFRAME_FFPROBE to the ffmpeg and ffprobe binaries.',
    { stage: 'encode', details: { install: installCommand('ffmpeg') } },
  );
}

/** `ffmpeg version 5.1.9-0+deb12u1 Copyright ...` -> `5.1.9-0+deb12u1` */
export function parseFfmpegVersion(output: string): string {
  return /ffmpeg version (\S+)/.exec(output)?.[1] ?? 'unknown';
}

/** Reads `ffmpeg -encoders` lines such as ` V....D libx264  libx264 H.264 ...`. */
export function parseEncoders(output: string): Record<CheckedEncoder, boolean> {
  const names = new Set<string>();
  for (const line of output.split('\n')) {
    const match = /^\s*[VAS][A-Z.]{5}\s+(\S+)/.exec(line);
    if (match) names.add(match[1]!);
  }
  return Object.fromEntries(CHECKED_ENCODERS.map((name) => [name, names.has(name)])) as Record<CheckedEncoder, boolean>;
}
