import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './repo-root.js';

const run = promisify(execFile);

/** Folders that hold no tests of ours. */
const SKIP = new Set(['node_modules', 'dist', '.git', '.turbo', 'cache', '.vitepress']);

/** Every file of the checkout that looks like a test (any extension vitest could run). */
async function testFilesOnDisk(dir = REPO_ROOT): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) found.push(...(await testFilesOnDisk(path.join(dir, entry.name))));
    } else if (/\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name)) {
      found.push(path.relative(REPO_ROOT, path.join(dir, entry.name)));
    }
  }
  return found;
}

/** What vitest itself would run, file by file with its project (`vitest list`). */
async function listedByVitest(): Promise<Array<{ file: string; project: string }>> {
  const { stdout } = await run(
    process.execPath,
    [path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'), 'list', '--filesOnly', '--json'],
    {
      cwd: REPO_ROOT,
      // Without this worker's VITEST_* variables: a plain `vitest list` from the shell.
      env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))), NO_COLOR: '1' },
      maxBuffer: 16 * 2 ** 20,
    },
  );
  const listed = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ file: string; projectName: string }>;
  return listed.map((entry) => ({ file: path.relative(REPO_ROOT, entry.file), project: entry.projectName }));
}

describe('every test file is in exactly one vitest project (scripts/test-suite/test-projects.ts)', () => {
  it('no test file is left out of the run, none runs twice, and each is where its folder says', async () => {
    const [onDisk, listed] = await Promise.all([testFilesOnDisk(), listedByVitest()]);
    const projectsOf = new Map<string, string[]>();
    for (const { file, project } of listed) projectsOf.set(file, [...(projectsOf.get(file) ?? []), project]);

    // A test file no project includes never runs: a `.test.js`, a `.spec.ts`, a folder outside the globs.
    expect(onDisk.filter((file) => !projectsOf.has(file)).sort()).toEqual([]);
    expect([...projectsOf].filter(([, projects]) => projects.length > 1)).toEqual([]);
    // The rule by location: a `test/` folder is heavy (tools/registry: outside), anything else unit.
    const expected = (file: string): string =>
      file.startsWith('tools/registry/') ? 'outside' : file.split('/').includes('test') ? 'heavy' : 'unit';
    expect(listed.filter(({ file, project }) => project !== expected(file))).toEqual([]);
    expect(listed.length).toBeGreaterThan(250);
  });
});
