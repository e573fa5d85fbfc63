import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Folders whose changes never affect the picture (outputs, dependencies, tool state). */
const IGNORED = new Set(['node_modules', 'renders', '.git', '.seekframe', '.turbo']);

export function isWatchedPath(relative: string): boolean {
  return !relative.split(/[\\/]/).some((part) => IGNORED.has(part) || (part.startsWith('.') && part.length > 1));
}

/**
 * Calls `onChange` with the changed files (relative, POSIX) once edits have been quiet for
 * `debounceMs`: an editor's save (write temp, rename, chmod) is one reload, not three.
 * `fs.watch` with `recursive` works on Linux from Node 20.
 */
export function watchProject(root: string, onChange: (files: string[]) => void, debounceMs = 150): () => void {
  const changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, name) => {
    const relative = name ? String(name).split(path.sep).join('/') : '';
    if (relative && !isWatchedPath(relative)) return;
    if (relative) changed.add(relative);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed].sort();
      changed.clear();
      onChange(files);
    }, debounceMs);
  });
  // A deleted project folder ends watching; the preview keeps serving what it can.
  watcher.on('error', () => watcher.close());
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
