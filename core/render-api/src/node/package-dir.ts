import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of an installed package, found the way Node looks (node_modules of this folder and
 * every parent). Used instead of import.meta.resolve, which vitest lacks, and of require.resolve,
 * which fails on packages that export only `import` conditions.
 */
export function packageDir(name: string, from = fileURLToPath(new URL('.', import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`package ${name} is not installed (looked upwards from ${from})`);
  }
}
