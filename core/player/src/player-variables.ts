import { SeekframeError } from '@seekframe/composition';
import * as z from 'zod/mini';

const VariablesSchema = z.record(z.string(), z.unknown());

/** `player.variables = …`: an object of variable values, or undefined for the composition's defaults. */
export function checkedVariables(value: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const parsed = VariablesSchema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new SeekframeError('invalid-variables', '<seekframe-player>.variables must be an object of variable values', {
      stage: 'variables',
    });
  }
  return value ? parsed.data : undefined;
}

/** `<seekframe-player variables='{"title":"Hi"}'>`: JSON, or nothing (blank) for the defaults. */
export function variablesFromAttribute(value: string | null): Record<string, unknown> | undefined {
  if (value === null || value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as Record<string, unknown>;
  } catch (error) {
    throw new SeekframeError(
      'invalid-variables',
      `<seekframe-player variables> is not valid JSON (${String(error)}); write a JSON object like {"title":"Hi"}`,
      { stage: 'variables' },
    );
  }
}
