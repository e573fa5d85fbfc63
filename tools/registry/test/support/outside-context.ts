import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import type { PackageManifest } from '../../src/public-packages.js';

/** What the global setup hands every test of the `outside` project (vitest provide/inject). */
export interface OutsideContext {
  /** Temp folder of this run; every project the tests make lives below `<root>/work`. */
  root: string;
  /** The local registry's URL and the npm user config that points at it (with a token). */
  registry: string;
  userconfig: string;
  /** Every public package as packed and published, in publish order. */
  packed: Array<{ name: string; version: string; tarball: string; files: string[]; manifest: PackageManifest; relativeDir: string }>;
  /** A folder with `seekframe` installed from the registry (`npm install seekframe`). */
  cliDir: string;
  /** Seconds each set-up step took. */
  timings: Record<string, number>;
}

/**
 * Where the global setup writes the context once it is ready (or `{ error }` when it failed): it
 * runs beside the unit tests instead of before every test of the run (global-setup.ts).
 */
export interface OutsideReady {
  file: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    outsideReady: OutsideReady;
  }
}

/** Verdaccio, packing and publishing every package and one `npm install seekframe`, on a busy machine. */
const SETUP_FINISHES_MS = 30 * 60_000;

let context: Promise<OutsideContext> | undefined;

/** The run's registry and packages, once the global setup has them ready (waits for it, bounded). */
export function outsideContext(): Promise<OutsideContext> {
  context ??= (async () => {
    const { file } = inject('outsideReady');
    const deadline = Date.now() + SETUP_FINISHES_MS;
    for (;;) {
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text) {
        const ready = JSON.parse(text) as OutsideContext | { error: string };
        if ('error' in ready) throw new Error(`the outside set-up failed: ${ready.error}`);
        return ready;
      }
      if (Date.now() > deadline)
        throw new Error(
          `waited ${SETUP_FINISHES_MS / 60_000} min for the outside set-up (Verdaccio, publishing every package, npm install seekframe)`,
        );
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return context;
}
