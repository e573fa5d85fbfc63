import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import {
  defaultOutputPath,
  RENDER_LIMIT_SETTINGS,
  type OutputFormat,
  type RenderLimitName,
  type RenderOptionsInput,
} from '@seekframe/producer';
import { limitValues, type LimitFlags } from './limit-flags.js';

/** What commander hands the action: every value is a string (or boolean) as typed. */
export interface RenderFlags extends LimitFlags {
  /** --queue: render on a fleet (redis://…); see render-on-queue.ts. */
  queue?: string;
  queueName?: string;
  store?: string;
  chunkFrames?: string;
  keepInStore?: boolean;
  output?: string;
  format?: string;
  fps?: string;
  frames?: string;
  gifLoop?: string;
  quality?: string;
  crf?: string;
  videoBitrate?: string;
  videoFrameFormat?: string;
  workers?: string;
  browserGpu?: boolean;
  gpu?: boolean;
  hdr?: boolean;
  sdr?: boolean;
  docker?: boolean;
  captureMode?: string;
  quiet?: boolean;
  json?: boolean;
  report?: string;
  variables?: string;
  variablesFile?: string;
  strictVariables?: boolean;
  strict?: boolean;
  network?: string;
  batch?: string;
  batchConcurrency?: string;
  batchFailFast?: boolean;
  batchResume?: boolean;
  scale?: string;
  hlsSegmentSeconds?: string;
  captions?: string;
  captionsVariable?: string;
}

/** `videoBitrate` -> `--video-bitrate`: errors name the flag the user typed. */
export function flagName(field: string): string {
  const top = field.split('.')[0] ?? field;
  if (top === 'projectDir') return 'the project folder argument';
  if (top === 'limits')
    return (
      RENDER_LIMIT_SETTINGS[field.split('.')[1] as RenderLimitName]?.flag ??
      `--${(field.split('.')[1] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`
    );
  return `--${top.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export function flagError(flag: string, message: string): SeekframeError {
  return new SeekframeError('invalid-options', `${flag} ${message}`, { stage: 'config', details: { field: flag } });
}

/** Whole-number flags become numbers here; anything else is an error that names the flag. */
export function integerFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\s*-?\d+\s*$/.test(value)) throw flagError(flag, `must be a whole number, got "${value}"`);
  return Number(value);
}

/**
 * Turns raw flags into the producer's option object. Range and format checks happen in the
 * producer's schema (through `flagName`), so the CLI and the server share one set of rules.
 */
export async function renderFlagsToOptions(dir: string, flags: RenderFlags, cwd: string): Promise<RenderOptionsInput> {
  const workers =
    flags.workers === undefined || flags.workers.trim() === 'auto' ? flags.workers?.trim() : integerFlag('--workers', flags.workers);
  const options: Record<string, unknown> = {
    projectDir: path.resolve(cwd, dir),
    // The default is relative to the CLI's cwd, which in tests is not the process's.
    output: path.resolve(cwd, flags.output ?? defaultOutputPath(dir, (flags.format ?? 'mp4') as OutputFormat, cwd)),
    format: flags.format,
    fps: flags.fps,
    // "30-59" or "45"; the producer's schema parses it and planRender checks it fits the composition.
    frames: flags.frames,
    quality: flags.quality,
    crf: integerFlag('--crf', flags.crf),
    videoBitrate: flags.videoBitrate,
    gifLoop: integerFlag('--gif-loop', flags.gifLoop),
    videoFrameFormat: flags.videoFrameFormat,
    workers,
    browserGpu: flags.browserGpu,
    gpu: flags.gpu,
    hdr: flags.hdr,
    sdr: flags.sdr,
    captureMode: flags.captureMode,
    variables: await readVariables(flags, cwd),
    strictVariables: flags.strictVariables,
    strict: flags.strict,
    network: flags.network,
    limits: limitFlags(flags),
    // Numbers with fractions (--scale 1.5); the producer's schema checks their ranges.
    scale: flags.scale,
    hlsSegmentSeconds: flags.hlsSegmentSeconds,
    captions: flags.captions === undefined ? undefined : path.resolve(cwd, flags.captions),
    captionsVariable: flags.captionsVariable,
  };
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
  return options as RenderOptionsInput;
}

/** --max-frames, --max-render-seconds, --max-workers, --max-pixels (none by default on the CLI), --max-memory (a default in the producer). */
export function limitFlags(flags: LimitFlags): Record<string, string> | undefined {
  const set = limitValues(flags) as Record<string, string>;
  return Object.keys(set).length > 0 ? set : undefined;
}

export async function readVariables(
  flags: Pick<RenderFlags, 'variables' | 'variablesFile'>,
  cwd: string,
): Promise<Record<string, unknown> | undefined> {
  if (flags.variables !== undefined && flags.variablesFile !== undefined) {
    throw flagError('--variables', 'and --variables-file exclude each other; put all values in one of them');
  }
  if (flags.variables !== undefined) return parseObject('--variables', flags.variables);
  if (flags.variablesFile === undefined) return undefined;
  const text = await readFlagFile('--variables-file', path.resolve(cwd, flags.variablesFile));
  return parseObject(`--variables-file ${JSON.stringify(flags.variablesFile)}`, text);
}

/** The text of the file a flag names; an unreadable file is an error naming the flag. */
export async function readFlagFile(flag: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw flagError(flag, `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path`);
  }
}

function parseObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw flagError(
      flag,
      `is not valid JSON (${error instanceof Error ? error.message : String(error)}); give an object like '{"title":"Hello"}'`,
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw flagError(
      flag,
      `must be a JSON object like '{"title":"Hello"}', got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    );
  }
  return value as Record<string, unknown>;
}
