import { defineConfig } from 'vitest/config';

// One root config: tests sit beside the code (`x.test.ts`) or in a package's `test/` folder.
// The `source` export condition makes workspace imports resolve to TypeScript sources, so the
// suite never runs against a stale build.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: [
      'core/*/src/**/*.test.ts',
      'core/*/test/**/*.test.ts',
      'adapters/*/src/**/*.test.ts',
      'adapters/*/test/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'compositions/*/test/**/*.test.ts',
      'bench/**/*.test.ts',
      'docs/test/**/*.test.ts',
    ],
    pool: 'forks',
    // Gives each run an id; the container tests use it to build their images once per run.
    globalSetup: ['./vitest.global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
