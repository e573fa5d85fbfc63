import { fileURLToPath } from 'node:url';

/**
 * The contract suite's composition: 160x90, 1 s, 10 fps, a `title` string (maxLength 24), a
 * `size` number (10-60) and a `hold` boolean (true: the render waits at frame 1 until cancelled). Every template's stand-in serves this one when running the suite.
 */
export function contractCompositionDir(): string {
  return fileURLToPath(new URL('../../fixtures/contract-composition', import.meta.url));
}

/**
 * A 32x32, 0.3 s composition whose frame 1 waits for its gate.txt to say "go", which it never
 * does: a render of it stays in capture until it is cancelled (disconnect and cancel tests).
 */
export function gatedCompositionDir(): string {
  return fileURLToPath(new URL('../../fixtures/gated-composition', import.meta.url));
}
