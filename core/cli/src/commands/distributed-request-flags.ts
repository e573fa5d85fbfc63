import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';

/**
 * The render API body a distributed render takes (variables, format, quality, whole-number fps),
 * from the flags of `seekframe lambda render` and `seekframe render --queue`.
 */
export async function requestFromFlags(
  flags: { variables?: string; variablesFile?: string; format?: string; quality?: string; fps?: string; frames?: string },
  cwd: string,
): Promise<Record<string, unknown>> {
  if (flags.variables !== undefined && flags.variablesFile !== undefined)
    throw new SeekframeError('invalid-options', '--variables and --variables-file exclude each other.', { stage: 'config' });
  let variables: unknown;
  const text = flags.variablesFile !== undefined ? await readFile(path.resolve(cwd, flags.variablesFile), 'utf8') : flags.variables;
  if (text !== undefined) {
    try {
      variables = JSON.parse(text);
    } catch {
      throw new SeekframeError('invalid-options', `${flags.variablesFile ? '--variables-file' : '--variables'} is not JSON.`, {
        stage: 'config',
      });
    }
  }
  const fps = flags.fps === undefined ? undefined : Number(flags.fps);
  if (fps !== undefined && !Number.isInteger(fps))
    throw new SeekframeError('invalid-options', `--fps must be a whole number, got "${flags.fps}".`, { stage: 'config' });
  return {
    ...(variables !== undefined ? { variables } : {}),
    ...(flags.format ? { format: flags.format } : {}),
    ...(flags.quality ? { quality: flags.quality } : {}),
    ...(fps !== undefined ? { fps } : {}),
    // Parsed and checked by the render API's body schema (Lambda) or the render spec (a fleet), like every other field.
    ...(flags.frames !== undefined ? { frames: flags.frames } : {}),
  };
}
