import { stat } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';

export interface ProjectLocation {
  /** Folder served as the site root. */
  root: string;
  /** Absolute path of the entry HTML. */
  entryFile: string;
  /** Entry path relative to root, POSIX separators. */
  entry: string;
}

/** A folder means its index.html; an HTML file is the entry and its folder the root. */
export async function resolveProject(projectDir: string, cwd = process.cwd()): Promise<ProjectLocation> {
  const resolved = path.resolve(cwd, projectDir);
  const info = await stat(resolved).catch(() => undefined);
  if (!info) {
    throw new SeekframeError(
      'entry-not-found',
      `${projectDir} does not exist; pass a composition folder (with index.html) or an HTML file.`,
      {
        stage: 'load',
        details: { path: resolved },
      },
    );
  }
  const entryFile = info.isDirectory() ? path.join(resolved, 'index.html') : resolved;
  if (
    info.isDirectory() &&
    !(await stat(entryFile).then(
      (s) => s.isFile(),
      () => false,
    ))
  ) {
    throw new SeekframeError(
      'entry-not-found',
      `${projectDir} has no index.html; pass the composition's HTML file instead, add index.html, or create a project with seekframe init <name>.`,
      {
        stage: 'load',
        details: { path: entryFile },
      },
    );
  }
  const root = path.dirname(entryFile);
  return { root, entryFile, entry: path.basename(entryFile) };
}
