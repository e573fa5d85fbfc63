import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One id per `vitest run`: the container tests build their images once per run (core/cli/test/container-images.ts). */
    seekframeRunId: string;
  }
}

export default function setup(project: TestProject): void {
  project.provide('seekframeRunId', randomUUID());
}
