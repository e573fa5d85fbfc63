import { fileURLToPath } from 'node:url';

/**
 * The contract suite's composition: 160x90, 1 s, 10 fps, a `title` string (maxLength 24) and a
 * `size` number (10-60). Every template's stand-in serves this one when running the suite.
 */
export function contractCompositionDir(): string {
  return fileURLToPath(new URL('../../fixtures/contract-composition', import.meta.url));
}
