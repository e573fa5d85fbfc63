import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { RUN_ID_KEY } from './core/cli/test/run-id.js';

/** One id per `vitest run`, for the container tests' once-per-run image builds. */
export default function setup(project: TestProject): void {
  project.provide(RUN_ID_KEY, randomUUID());
}
