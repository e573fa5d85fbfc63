/**
 * A vitest setup file of the `unit` project: a unit test that starts a real process of a heavy
 * kind (a browser, ffmpeg, ffprobe, npm, podman, redis-server, the Seekframe CLI...: HEAVY_KINDS)
 * fails at that moment, saying where the file belongs. The unit project runs on every core at
 * once; a browser there would share a core with another file's browser, and the suite would time
 * out on a busy machine. See docs/contributing/tests.md, "Which project a test belongs to".
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HEAVY_KINDS, processKind } from './process-kind.js';
import { onSpawn } from './spawn-hook.js';

export class WrongTestProjectError extends Error {
  override name = 'WrongTestProjectError';
}

/** Where `program` is found (PATH lookup for a bare name); undefined when nowhere. */
function resolveProgram(program: string, searchPath: string | undefined): string | undefined {
  const candidates = program.includes('/')
    ? [program]
    : (searchPath ?? '')
        .split(':')
        .filter(Boolean)
        .map((dir) => path.join(dir, program));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return realpathSync(candidate);
    } catch {
      // not there
    }
  }
  return undefined;
}

const TMP = realpathSync(os.tmpdir());

onSpawn((argv, searchPath) => {
  const kind = processKind(argv);
  if (!HEAVY_KINDS.has(kind)) return;
  // A stand-in the test wrote (a `docker` or `ffmpeg` script in a temp folder) is no real process.
  const program = resolveProgram(argv[0] ?? '', searchPath);
  if (program?.startsWith(`${TMP}${path.sep}`)) return;
  throw new WrongTestProjectError(
    `This test starts ${path.basename(argv[0] ?? '')} (${kind}): a real-process test, but it runs in the \`unit\` project, ` +
      "whose files run on every core at once. Move the file to its package's test/ folder (the `heavy` project: one file per core), " +
      'or give the code under test a stand-in for the process. See docs/contributing/tests.md.',
  );
});
