import type { Command } from 'commander';
import {
  DEFAULT_MEMORY_PER_BROWSER_MB,
  RENDER_LIMIT_SETTINGS,
  SERVER_RENDER_LIMITS,
  type RenderLimitName,
} from '@seekframe/producer/limits';

/** The `--max-*` flags as commander hands them over (strings; the producer's schema checks them). */
export interface LimitFlags {
  maxFrames?: string;
  maxRenderSeconds?: string;
  maxWorkers?: string;
  maxPixels?: string;
  maxMemory?: string;
}

/**
 * Who reads the limits: a one-off `render` (none by default), or a long-running `serve` or
 * `worker` (each also from its PRODUCER_MAX_* variable, else the server's default). One wording
 * per limit and face, from the one table of limits (RENDER_LIMIT_SETTINGS, SERVER_RENDER_LIMITS).
 */
export type LimitFace = 'render' | 'serve' | 'worker';

const FLAG_KEYS: Record<RenderLimitName, keyof LimitFlags> = {
  maxFrames: 'maxFrames',
  maxRenderSeconds: 'maxRenderSeconds',
  maxWorkers: 'maxWorkers',
  maxPixels: 'maxPixels',
  maxMemoryMB: 'maxMemory',
};

const VALUE: Record<RenderLimitName, string> = {
  maxFrames: 'n',
  maxRenderSeconds: 'n',
  maxWorkers: 'n',
  maxPixels: 'n',
  maxMemoryMB: 'MB',
};

function serverDefault(name: RenderLimitName): string {
  const env = RENDER_LIMIT_SETTINGS[name].env;
  if (name === 'maxMemoryMB') return `${env}, else ${DEFAULT_MEMORY_PER_BROWSER_MB} per browser of the render`;
  if (name === 'maxPixels') return `${env} or ${SERVER_RENDER_LIMITS.maxPixels} = 3840x2160`;
  return `${env} or ${SERVER_RENDER_LIMITS[name]}`;
}

function description(name: RenderLimitName, face: LimitFace): string {
  const server = face !== 'render';
  const what: Record<RenderLimitName, string> = {
    maxFrames: server ? 'refuse renders of more frames' : 'refuse a render of more frames',
    maxRenderSeconds:
      face === 'worker'
        ? 'stop a chunk after this wall time'
        : server
          ? 'cancel a render after this wall time'
          : 'cancel the render after this many seconds of wall time (render-timeout)',
    maxWorkers: server ? 'refuse requests for more workers; auto is capped' : 'refuse more --workers than this; auto is capped to it',
    maxPixels: server ? 'refuse frames of more pixels' : 'refuse frames larger than this many pixels (width x height)',
    maxMemoryMB:
      face === 'worker'
        ? 'stop a chunk whose browser holds more memory than this, in MB'
        : `stop ${server ? 'a render whose' : 'the render when its'} browsers together hold more memory than this, in MB (memory-limit-exceeded)`,
  };
  if (server) return `${what[name]} (default ${serverDefault(name)})`;
  return name === 'maxMemoryMB'
    ? `${what[name]}; default ${DEFAULT_MEMORY_PER_BROWSER_MB} per browser; a page's JavaScript heap gets half`
    : `${what[name]} (default: no limit)`;
}

/** Adds the `--max-*` flags of `names` (default: all five) to a command, worded for its face. */
export function addLimitOptions(
  command: Command,
  face: LimitFace,
  names: readonly RenderLimitName[] = Object.keys(RENDER_LIMIT_SETTINGS) as RenderLimitName[],
): Command {
  for (const name of names) command.option(`${RENDER_LIMIT_SETTINGS[name].flag} <${VALUE[name]}>`, description(name, face));
  return command;
}

/** The limits the flags set, keyed as the producer names them (`maxMemoryMB` for `--max-memory`); given ones only. */
export function limitValues(flags: LimitFlags): Partial<Record<RenderLimitName, string>> {
  const values: Partial<Record<RenderLimitName, string>> = {};
  for (const [name, key] of Object.entries(FLAG_KEYS) as Array<[RenderLimitName, keyof LimitFlags]>) {
    if (flags[key] !== undefined) values[name] = flags[key];
  }
  return values;
}

/** `limits.maxFrames` -> `--max-frames`: errors about a limit name the flag the user typed. */
export function limitFlagName(field: string): string | undefined {
  const name = field.startsWith('limits.') ? (field.slice('limits.'.length) as RenderLimitName) : undefined;
  return name && name in RENDER_LIMIT_SETTINGS ? RENDER_LIMIT_SETTINGS[name].flag : undefined;
}
