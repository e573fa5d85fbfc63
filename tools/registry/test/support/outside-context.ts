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

declare module 'vitest' {
  export interface ProvidedContext {
    outside: OutsideContext;
  }
}
