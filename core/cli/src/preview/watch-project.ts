import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Folders whose changes never affect the picture (outputs, dependencies, tool state). */
const IGNORED = new Set(['node_modules', 'renders', '.git', '.seekframe', '.turbo']);

export function isWatchedPath(relative: string): boolean {
  return !relative.split(/[\\/]/).some((part) => IGNORED.has(part) || (part.startsWith('.') && part.length > 1));
}

/**
 * Calls `onChange` with the changed files (relative, POSIX) once edits have been quiet for
 * `debounceMs`: an editor's save (write temp, rename, chmod) is one reload, not three.
 *
 * One non-recursive `fs.watch` per folder (new folders are watched as they appear). Node 20's
 * `recursive` mode on Linux watches each file, and loses a file for good once a save replaces
 * it by a rename (what many editors and the studio's own writes do): later saves never reloaded.
 * A folder's watch names every entry that is written, created or renamed into it.
 */
export function watchProject(root: string, onChange: (files: string[]) => void, debounceMs = 150): () => void {
  const changed = new Set<string>();
  const watchers = new Map<string, FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const note = (relative: string): void => {
    changed.add(relative);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const files = [...changed].sort();
      changed.clear();
      onChange(files);
    }, debounceMs);
  };

  const watchFolder = (relative: string): void => {
    if (stopped || watchers.has(relative) || (relative && !isWatchedPath(relative))) return;
    const folder = path.join(root, relative);
    if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, (_event, name) => {
        if (!name) return;
        const file = relative ? `${relative}/${String(name)}` : String(name);
        if (!isWatchedPath(file)) return;
        note(file);
        // A folder created (or moved in) is watched too.
        watchFolder(file);
      });
    } catch {
      return; // not a folder, or gone already
    }
    // A deleted folder ends its watch; the preview keeps serving what it can.
    watcher.on('error', () => {
      watcher.close();
      watchers.delete(relative);
    });
    watchers.set(relative, watcher);
    let entries: string[] = [];
    try {
      entries = readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      // Unreadable: only its own entries are watched.
    }
    for (const name of entries) watchFolder(relative ? `${relative}/${name}` : name);
  };

  watchFolder('');
  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
}
