import { createHash } from 'node:crypto';
import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listSourceElements, SeekframeError } from '@seekframe/composition';
import { projectHtmlFile } from './project-html-file.js';
import type { EditHistory, SourceInfo } from './studio-types.js';

/** One write the studio made: the whole file before and after, so undo gives it back byte for byte. */
interface Step {
  file: string;
  label: string;
  before: string;
  after: string;
}

export interface StudioEdits {
  /** A project HTML file with its content hash and clip-like elements (`GET source.json`). */
  source(file: string | undefined): Promise<SourceInfo>;
  /**
   * Writes `change(text)` into `file` when its content still has `hash`; 409 `source-changed`
   * otherwise (never overwritten). Records the step for undo.
   */
  write(file: string | undefined, hash: string, label: string, change: (text: string, file: string) => string): Promise<SourceInfo>;
  undo(hash: string): Promise<SourceInfo>;
  redo(hash: string): Promise<SourceInfo>;
  history(): EditHistory;
}

export const contentHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The studio's writes to the project's HTML files, and their undo history (one list for the
 * session, across files). Every path is confined to the project folder (symlinks resolved);
 * only `.html`/`.htm` files are written, through a temporary file and a rename.
 */
export function createStudioEdits(options: { root: string; entryFile: string }): StudioEdits {
  const steps: Step[] = [];
  let done = 0;
  const entry = path.relative(options.root, options.entryFile).split(path.sep).join('/');

  const locate = async (file: string | undefined): Promise<{ rel: string; abs: string }> => {
    const rel = file ?? entry;
    const found = await projectHtmlFile(options.root, rel);
    if ('path' in found) return { rel, abs: found.path };
    throw new SeekframeError(
      found.problem.startsWith('does not exist') ? 'not-found' : 'invalid-edit',
      `${JSON.stringify(rel.slice(0, 200))} ${found.problem}; name an HTML file of the project, e.g. ${entry}.`,
      { stage: 'serve', details: { file: rel.slice(0, 200) } },
    );
  };

  const read = async (abs: string, rel: string): Promise<string> => {
    const bytes = await readFile(abs);
    const text = bytes.toString('utf8');
    if (!Buffer.from(text, 'utf8').equals(bytes))
      throw new SeekframeError('invalid-edit', `${rel} is not valid UTF-8; the studio edits only UTF-8 files.`, {
        stage: 'serve',
        details: { file: rel },
      });
    return text;
  };

  const info = (rel: string, text: string): SourceInfo => ({ file: rel, hash: contentHash(text), elements: listSourceElements(text) });

  const changed = (rel: string): SeekframeError =>
    new SeekframeError(
      'source-changed',
      `${rel} changed on disk since the studio read it; it was not written. The page reloads it; edit again.`,
      {
        stage: 'serve',
        details: { file: rel },
      },
    );

  const save = async (abs: string, text: string): Promise<void> => {
    // Dot-named, so the project watcher ignores it; the rename is the one change it sees.
    const temp = path.join(path.dirname(abs), `.${path.basename(abs)}.seekframe-${process.pid}-${Date.now()}.tmp`);
    const mode = (await stat(abs)).mode & 0o777;
    try {
      await writeFile(temp, text, 'utf8');
      await chmod(temp, mode);
      await rename(temp, abs);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  };

  /** Moves along the history: the file must still be what the step left (or found). */
  const travel = async (step: Step | undefined, hash: string, forward: boolean): Promise<SourceInfo> => {
    if (!step)
      throw new SeekframeError('invalid-edit', `Nothing to ${forward ? 'redo' : 'undo'} in this studio session.`, { stage: 'serve' });
    const { rel, abs } = await locate(step.file);
    const text = await read(abs, rel);
    const expected = forward ? step.before : step.after;
    if (text !== expected || hash !== contentHash(expected)) throw changed(rel);
    const next = forward ? step.after : step.before;
    await save(abs, next);
    done += forward ? 1 : -1;
    return info(rel, next);
  };

  return {
    async source(file) {
      const { rel, abs } = await locate(file);
      return info(rel, await read(abs, rel));
    },
    async write(file, hash, label, change) {
      const { rel, abs } = await locate(file);
      const before = await read(abs, rel);
      if (contentHash(before) !== hash) throw changed(rel);
      const after = change(before, rel);
      if (after !== before) {
        await save(abs, after);
        steps.splice(done, steps.length - done, { file: rel, label, before, after });
        done = steps.length;
      }
      return info(rel, after);
    },
    undo: (hash) => travel(done > 0 ? steps[done - 1] : undefined, hash, false),
    redo: (hash) => travel(steps[done], hash, true),
    history() {
      const at = (step: Step | undefined) => (step ? { file: step.file, label: step.label } : null);
      return { undo: at(done > 0 ? steps[done - 1] : undefined), redo: at(steps[done]) };
    },
  };
}
