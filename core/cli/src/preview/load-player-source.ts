import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { SeekframeError } from '@seekframe/composition';

/** The `<seekframe-player>` ES module the preview page loads (`@seekframe/player/bundle`). */
export async function loadPlayerSource(): Promise<string> {
  let file = '';
  try {
    // require.resolve honours the exports map and, unlike import.meta.resolve, works under vitest too.
    file = createRequire(import.meta.url).resolve('@seekframe/player/bundle');
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new SeekframeError(
      'player-bundle-missing',
      `The <seekframe-player> bundle ${file || '@seekframe/player/bundle'} could not be read (${error instanceof Error ? error.message : String(error)}). ` +
        'Build it with `npx turbo run build` (or reinstall seekframe).',
      { stage: 'serve', details: { file } },
    );
  }
}
