import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirstSequencer } from './scripts/test-suite/sequencer.js';
import { PROJECTS } from './scripts/test-suite/test-projects.js';

// One root config: tests sit beside the code (`x.test.ts`) or in a package's `test/` folder.
// The `source` export condition makes workspace imports resolve to TypeScript sources, so the
// suite never runs against a stale build.
//
// Three projects, by where a test file is (scripts/test-suite/test-projects.ts;
// docs/contributing/tests.md says which a new test belongs to):
// - `unit` (tests next to the code: pure functions, in-process servers) runs first, one file
//   per core;
// - `heavy` (a `test/` folder: browsers, ffmpeg, podman, Redis...) and `outside` (Seekframe
//   installed from a local registry: tools/registry) run after it, one file per core, so two
//   heavy files never share a core.
// Each file runs in a fresh process (forks, isolated). SEEKFRAME_TEST_WORKERS overrides the
// number of files at once (default: the cores).
const workers = Number(process.env.SEEKFRAME_TEST_WORKERS) || availableParallelism();
const PROFILE = './scripts/test-suite/profile-setup.ts';

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    pool: 'forks',
    // Longest files first (vitest's record of the last run, else scripts/test-suite/file-seconds.json).
    sequence: { sequencer: LongestFirstSequencer },
    maxWorkers: workers,
    minWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          ...PROJECTS.unit,
          // A unit test that starts a browser, ffmpeg, npm, podman... fails, naming where it belongs.
          setupFiles: [PROFILE, './scripts/test-suite/unit-guard.ts'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'heavy',
          ...PROJECTS.heavy,
          setupFiles: [PROFILE],
          // Gives each run an id; the container tests use it to build their images once per run.
          globalSetup: ['./vitest.global-setup.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'outside',
          ...PROJECTS.outside,
          setupFiles: [PROFILE],
          // Verdaccio + publishing every package, only when one of these files is in the run.
          globalSetup: ['tools/registry/test/global-setup.ts'],
          sequence: { groupOrder: 1 },
          // npm installs through the local registry and real builds (next build, wrangler) take minutes on a busy machine.
          testTimeout: 600_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
