// Types of scripts/build.mjs for the tests that call it.
export declare const DEFAULT_COMPOSITION_DIR: string;
export declare function resolveCompositionDir(setting?: string): string;
export declare function buildWorker(options?: { compositionDir?: string; outDir?: string }): Promise<{ outfile: string; compositionDir: string; files: number }>;
export declare function buildContainerContext(options?: { compositionDir?: string; outDir?: string }): Promise<{ outDir: string; packs: string[] }>;
export declare function stageContainerPackages(options?: { outDir?: string; appDir?: string }): Promise<{ outDir: string; reused: boolean }>;
