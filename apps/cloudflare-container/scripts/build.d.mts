// Types of scripts/build.mjs for the tests that call it.
export declare const DEFAULT_COMPOSITION_DIR: string;
export declare function resolveCompositionDir(setting?: string): string;
export declare function buildWorker(options?: { compositionDir?: string; outDir?: string; assetsDir?: string }): Promise<{
  outfile: string;
  assetsDir: string;
  compositionDir: string;
  files: number;
  /** Files prepared for the player (the Worker's static assets). */
  prepared: number;
  preparedBytes: number;
  /** Remote URLs the pages reference with no local copy at build time (the viewer's browser loads them). */
  notLocal: string[];
}>;
export declare function buildContainerContext(options?: {
  compositionDir?: string;
  outDir?: string;
}): Promise<{ outDir: string; packs: string[] }>;
export declare function stageContainerPackages(options?: {
  outDir?: string;
  appDir?: string;
}): Promise<{ outDir: string; reused: boolean }>;
