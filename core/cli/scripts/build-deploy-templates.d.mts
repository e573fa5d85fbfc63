export declare const DEFAULT_OUT_DIR: string;
export declare const BUNDLED_COMPOSITION: string;
export declare const DOT_FILES: string[];
export declare const TEMPLATES: Record<
  'modal-function' | 'vercel-sandbox' | 'cloudflare-container',
  {
    compositionDir: string;
    omitScripts: string[];
    omitFiles?: string[];
    addScripts?: Record<string, string>;
    repositoryFiles?: Record<string, string>;
  }
>;
export declare function buildTemplate(template: string, outDir?: string): Promise<string[]>;
export declare function buildDeployTemplates(options?: { outDir?: string }): Promise<Record<string, string[]>>;
