/**
 * The id `vitest.global-setup.ts` provides once per `vitest run`: the container tests build their
 * images at most once per run (container-images.ts). Declared here so every tsconfig that compiles
 * a test using it sees the key.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    seekframeRunId: string;
  }
}

export const RUN_ID_KEY = 'seekframeRunId';
