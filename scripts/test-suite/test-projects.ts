/**
 * Which vitest project a test file belongs to, by where it is (vitest.config.ts reads these):
 *
 * - `unit`: every `*.test.ts` outside a `test/` folder: tests next to the code they test, of pure
 *   functions and in-process servers. Their files run on every core at once. A unit test that
 *   starts a browser, ffmpeg, npm, podman, redis-server or the CLI fails (unit-guard.ts).
 * - `heavy`: every `*.test.ts` inside a `test/` folder (`core/<pkg>/test/`, `adapters/<pkg>/test/`,
 *   `apps/<app>/test/`, `compositions/<name>/test/`, `corpus/test/`, `docs/test/`, `scripts/test/`):
 *   real-process suites (browsers, ffmpeg, podman images, Redis and worker processes, the docs
 *   site build). One file per core, after the unit files.
 * - `outside`: `tools/registry/test/`: Seekframe as users install it, from a local registry.
 *   Scheduled with the heavy files.
 *
 * A new test lands in the right project by where it is put; project-membership.test.ts fails for
 * a test file that no project runs.
 */
export const TEST_FILE = '**/*.test.ts';

/** Folders no project looks in (vitest's defaults and build output). */
export const NEVER = ['**/node_modules/**', '**/dist/**', '**/.git/**', '**/.turbo/**', '**/.vitepress/cache/**'];

export const OUTSIDE_TESTS = ['tools/registry/test/**/*.test.ts'];

export const HEAVY_TESTS = ['**/test/**/*.test.ts'];

export const PROJECTS: Record<'unit' | 'heavy' | 'outside', { include: string[]; exclude: string[] }> = {
  unit: { include: [TEST_FILE], exclude: [...NEVER, '**/test/**', 'tools/registry/**'] },
  heavy: { include: HEAVY_TESTS, exclude: [...NEVER, 'tools/registry/**'] },
  outside: { include: OUTSIDE_TESTS, exclude: NEVER },
};

export type ProjectName = keyof typeof PROJECTS;
