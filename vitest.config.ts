import { defineConfig } from 'vitest/config';

// One root config: tests sit beside the code (`x.test.ts`) or in a package's `test/` folder.
// The `source` export condition makes workspace imports resolve to TypeScript sources, so the
// suite never runs against a stale build.
// Two projects: `unit` is everything inside the repository; `outside` tests Seekframe the way
// users get it (published to a local registry, installed in temp folders). Its global setup
// (Verdaccio + publishing every package) runs only when one of its files is part of the run.
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Gives each run an id; the container tests use it to build their images once per run.
          globalSetup: ['./vitest.global-setup.ts'],
          include: [
            'core/*/src/**/*.test.ts',
            'core/*/test/**/*.test.ts',
            'adapters/*/src/**/*.test.ts',
            'adapters/*/test/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'apps/*/test/**/*.test.ts',
            'compositions/*/test/**/*.test.ts',
            'corpus/test/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
            'docs/test/**/*.test.ts',
          ],
        },
      },
      {
        extends: true,
        test: {
          name: 'outside',
          include: ['tools/registry/test/**/*.test.ts'],
          globalSetup: ['tools/registry/test/global-setup.ts'],
          // npm installs through the local registry and real builds (next build, wrangler) take minutes on a busy machine.
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
