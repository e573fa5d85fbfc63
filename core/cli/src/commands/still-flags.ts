import path from 'node:path';
import { parseStillFrame, parseStillList, parseStillTime, type StillAt, type StillParse } from '@seekframe/composition';
import { invalidArgument } from '../usage-error.js';
import { defaultOutputPath } from '@seekframe/producer';
import { flagName, limitFlags, readVariables, type RenderFlags } from './render-flags.js';

/** What commander hands `seekframe still`: every value a string (or boolean) as typed. */
export interface StillFlags
  extends Pick<
    RenderFlags,
    | 'output'
    | 'fps'
    | 'scale'
    | 'variables'
    | 'variablesFile'
    | 'strictVariables'
    | 'strict'
    | 'captureMode'
    | 'browserGpu'
    | 'network'
    | 'maxFrames'
    | 'maxRenderSeconds'
    | 'maxPixels'
    | 'maxMemory'
    | 'quiet'
    | 'json'
  > {
  time?: string;
  frame?: string;
  times?: string;
  frames?: string;
}

/** `--time`, `--frame`, `--times` or `--frames` (exactly one) as the stills to take. */
export function stillAtFromFlags(flags: StillFlags): StillAt[] {
  const given = (['time', 'frame', 'times', 'frames'] as const).filter((name) => flags[name] !== undefined);
  if (given.length !== 1) {
    throw invalidArgument(
      '--time',
      given.length === 0
        ? 'say which frame: --time 1.5s, --frame 45, --times 0,1.5,3 or --frames 0,45'
        : `--${given.join(' and --')} exclude each other; give one of them (--times and --frames take several)`,
    );
  }
  const flag = given[0]!;
  const text = flags[flag]!;
  const times = flag === 'time' || flag === 'times';
  const parse = (item: string): StillParse<number> => (times ? parseStillTime(item) : parseStillFrame(item));
  const parsed: StillParse<number[]> = flag === 'times' || flag === 'frames' ? parseStillList(text, parse) : wrap(parse(text));
  if (!parsed.ok) throw invalidArgument(`--${flag}`, `--${flag} ${parsed.message}`);
  return parsed.value.map((value) => (times ? { time: value } : { frame: value }));
}

function wrap(parsed: StillParse<number>): StillParse<number[]> {
  return parsed.ok ? { ok: true, value: [parsed.value] } : parsed;
}

/** Field names of the still options as the flags the user typed (`at` -> `--time`). */
export function stillFlagName(field: string): string {
  return field.split('.')[0] === 'at' ? '--time' : flagName(field);
}

/** The flags as renderStills' options; the producer's schema checks ranges (one set of rules with render). */
export async function stillFlagsToOptions(dir: string, flags: StillFlags, at: StillAt[], cwd: string): Promise<Record<string, unknown>> {
  const project = path.resolve(cwd, dir);
  const options: Record<string, unknown> = {
    projectDir: project,
    // The default is relative to the CLI's cwd, which in tests is not the process's.
    output: path.resolve(cwd, flags.output ?? `${defaultOutputPath(dir, 'png-sequence', cwd)}.png`),
    at,
    fps: flags.fps,
    scale: flags.scale,
    variables: await readVariables(flags, cwd),
    strictVariables: flags.strictVariables,
    strict: flags.strict,
    captureMode: flags.captureMode,
    browserGpu: flags.browserGpu,
    network: flags.network,
    limits: limitFlags(flags),
  };
  for (const key of Object.keys(options)) if (options[key] === undefined) delete options[key];
  return options;
}
