import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The order files start in: longest first, so the last files to start are short ones and the run
 * does not end with one core on a long file while the other waits (the files of a group run as
 * many at once as there are workers). How long a file takes comes from vitest's own record of the
 * last run on this machine, else from file-seconds.json (a profile's figures, committed, for a
 * fresh clone: small files such as the template flows are among the longest), else its size.
 * A file that failed last time still goes first, as vitest's own order does. The outside files
 * take every other place (alternateOutside).
 */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const keyed = files.map((spec) => {
      const path = relative(root, spec.moduleId);
      const last = cache.getFileTestResults(`${spec.project.name}:${path}`);
      const estimate = last?.duration ?? (COMMITTED[path] === undefined ? undefined : COMMITTED[path] * 1000);
      // Unknown files: a test file's size says a little (1 KB of test ~ 1 s here).
      const ms = estimate ?? cache.getFileStats(`${spec.project.name}:${path}`)?.size ?? 0;
      return { spec, failed: last?.failed ?? false, ms };
    });
    keyed.sort((a, b) => Number(b.failed) - Number(a.failed) || b.ms - a.ms);
    return alternateOutside(keyed.map(({ spec }) => spec));
  }
}

/**
 * The outside files (long, and the first of them waits for the registry set-up that runs beside
 * the unit files) every other place among the rest, in their order: one core waits on the set-up
 * or on npm while the other renders, instead of both waiting at once.
 */
function alternateOutside(files: TestSpecification[]): TestSpecification[] {
  const outside = files.filter((spec) => spec.project.name === 'outside');
  const rest = files.filter((spec) => spec.project.name !== 'outside');
  const ordered: TestSpecification[] = [];
  while (outside.length > 0 || rest.length > 0) {
    const next = outside.shift();
    if (next) ordered.push(next);
    const other = rest.shift();
    if (other) ordered.push(other);
  }
  return ordered;
}

/** Seconds per test file (repository-relative path) from a profile run (profile-report.ts --write-seconds). */
const COMMITTED = JSON.parse(readFileSync(new URL('./file-seconds.json', import.meta.url), 'utf8')) as Record<string, number>;
