import { stat } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';

/** `seekframe lint|render <path>`: a file is the entry; a folder means its index.html. */
export async function resolveEntry(cwd: string, target: string): Promise<string> {
  const resolved = path.resolve(cwd, target);
  const info = await stat(resolved).catch(() => undefined);
  if (!info) {
    throw new SeekframeError('entry-not-found', `${target} does not exist; pass a composition folder (with index.html) or an HTML file.`, {
      stage: 'load',
      details: { path: resolved },
    });
  }
  if (!info.isDirectory()) return resolved;
  const index = path.join(resolved, 'index.html');
  const indexInfo = await stat(index).catch(() => undefined);
  if (!indexInfo?.isFile()) {
    const shown = path.relative(cwd, resolved) || '.';
    throw new SeekframeError(
      'entry-not-found',
      `${shown} has no index.html. Pass the composition's HTML file (seekframe lint ${path.join(shown, 'other.html')}), ` +
        'or create a project with seekframe init <name>.',
      { stage: 'load', details: { path: index } },
    );
  }
  return index;
}
