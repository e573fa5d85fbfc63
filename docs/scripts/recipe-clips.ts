import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { DOCS_DIR, REPO_DIR } from './paths.js';

const run = promisify(execFile);

/**
 * The recipes of the manual (docs/recipes/<slug>/, each a composition) and the clips their pages
 * show, rendered by Seekframe itself whenever the site is built: a recipe that stops rendering
 * fails the docs build, and with it the suite's site test. `clips` are the files the page names
 * under /recipes/.
 */
export interface Recipe {
  slug: string;
  /** `seekframe render` arguments after the project folder (output excluded). */
  args: string[];
  /** Files the page shows, as written to public/recipes/ (`<slug>.mp4`, or one per batch row). */
  clips: string[];
  /** A batch: the rows file in the recipe folder; the clips are its first rows. */
  batch?: string;
}

export const RECIPES: Recipe[] = [
  { slug: 'captions-from-word-times', args: [], clips: ['captions-from-word-times.mp4'] },
  { slug: 'chart-from-json', args: [], clips: ['chart-from-json.mp4'] },
  {
    slug: 'batch-from-csv',
    args: [],
    batch: 'people.csv',
    clips: ['batch-from-csv-0.mp4', 'batch-from-csv-1.mp4', 'batch-from-csv-2.mp4'],
  },
  { slug: 'transparent-overlay', args: ['--format', 'webm'], clips: ['transparent-overlay.webm'] },
  { slug: 'video-with-audio', args: [], clips: ['video-with-audio.mp4'] },
  { slug: 'canvas-drawing', args: [], clips: ['canvas-drawing.mp4'] },
];

/** Every file of a recipe folder and the CLI's version: what a rendered clip depends on. */
async function recipeHash(dir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const name of (await readdir(dir)).sort()) {
    hash.update(name).update(await readFile(path.join(dir, name)));
  }
  const cli = JSON.parse(await readFile(path.join(REPO_DIR, 'core/cli/package.json'), 'utf8')) as { version: string };
  return hash.update(cli.version).digest('hex').slice(0, 16);
}

async function exists(file: string): Promise<boolean> {
  return (await stat(file).catch(() => null))?.isFile() ?? false;
}

/**
 * Renders each recipe's clips into `outDir` (docs/public/recipes, which the site serves), reusing
 * a clip from `cacheDir` when neither the recipe's files nor the CLI's version changed since.
 */
export async function renderRecipeClips(
  outDir: string,
  cacheDir: string,
  log: (line: string) => void = (line) => console.log(line),
): Promise<void> {
  const { seekframeBin } = await import('seekframe/bin-path');
  await mkdir(outDir, { recursive: true });
  for (const recipe of RECIPES) {
    const dir = path.join(DOCS_DIR, 'recipes', recipe.slug);
    const cached = path.join(cacheDir, `${recipe.slug}-${await recipeHash(dir)}`);
    const done = await Promise.all(recipe.clips.map((clip) => exists(path.join(cached, clip))));
    if (!done.every(Boolean)) {
      log(`docs: rendering the ${recipe.slug} recipe`);
      await rm(cached, { recursive: true, force: true });
      await mkdir(cached, { recursive: true });
      const output = recipe.batch
        ? ['--batch', path.join(dir, recipe.batch), '--output', path.join(cached, `${recipe.slug}-{index}.mp4`)]
        : ['--output', path.join(cached, recipe.clips[0]!)];
      await run(process.execPath, [seekframeBin, 'render', dir, ...recipe.args, ...output, '--quiet'], {
        cwd: REPO_DIR,
        maxBuffer: 16 * 1024 * 1024,
      }).catch((error: { stderr?: string; message: string }) => {
        throw new Error(`The ${recipe.slug} recipe (docs/recipes/${recipe.slug}) did not render: ${error.stderr || error.message}`);
      });
    }
    for (const clip of recipe.clips) await copyFile(path.join(cached, clip), path.join(outDir, clip));
  }
}
