import { describe, expect, it } from 'vitest';
import { SeekframeError } from '@seekframe/composition';
import { isUsageError } from '../usage-error.js';
import { validateProjectName } from './validate-project-name.js';

function problemOf(name: string): SeekframeError {
  try {
    validateProjectName(name);
  } catch (error) {
    if (error instanceof SeekframeError) return error;
    throw error;
  }
  throw new Error(`${name} was accepted`);
}

describe('validateProjectName', () => {
  it('accepts lowercase npm-style folder names', () => {
    for (const name of ['my-video', 'launch.2026', 'promo_v2', 'a']) expect(validateProjectName(name)).toBe(name);
  });

  it.each([
    ['My Video', 'capital letters'],
    ['my video', 'URL-friendly'],
    ['.hidden', 'start with a period'],
    ['_private', 'start with an underscore'],
    ['@me/video', '"/"'],
    ['a/b', '"/"'],
    ['node_modules', 'not a valid package name'],
    ['x'.repeat(215), 'more than 214'],
  ])('refuses %j (%s) as a usage error that states the rule', (name, reason) => {
    const error = problemOf(name);
    expect(error.code).toBe('invalid-argument');
    expect(isUsageError(error)).toBe(true);
    expect(error.message).toContain(reason);
    expect(error.message).toContain('becomes both the folder name and the npm package name');
    expect(error.details).toMatchObject({ field: 'project-name', value: name });
  });
});
