import { defineConfig } from 'vitest/config';

// The root config only collects core/ and adapters/ tests; this one runs the composition's own
// browser checks: `npx vitest run --config compositions/ui-3d-reveal/test/vitest.config.ts`.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['*.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
