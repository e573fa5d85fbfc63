import path from 'node:path';

/**
 * The composition this deployment previews and renders: a folder under `public/` (the default is
 * the bundled `compositions/ui-3d-reveal`), or an absolute path. Put your own in
 * `public/compositions/<name>/` (entry `index.html`) and set PREVIEW_COMPOSITION_DIR to
 * `compositions/<name>`.
 */
export const DEFAULT_PREVIEW_COMPOSITION_DIR = 'compositions/ui-3d-reveal';

export function previewCompositionDir(env: Record<string, string | undefined> = process.env): string {
  const configured = env.PREVIEW_COMPOSITION_DIR?.trim() || DEFAULT_PREVIEW_COMPOSITION_DIR;
  return path.isAbsolute(configured) ? configured : path.join(process.cwd(), 'public', configured);
}
