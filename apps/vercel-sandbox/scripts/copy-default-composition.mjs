// Copies the repository's bundled composition (compositions/ui-3d-reveal) into
// public/compositions/ui-3d-reveal, where the deployment previews and renders it from. Run before
// `next build` (vercel.json) and `next dev`; the copy is not committed, so it can never drift from
// the original. Your own compositions go in public/compositions/<name>/ and are left alone.
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const APP_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NAME = 'ui-3d-reveal';

/** Replaces `<appDir>/public/compositions/ui-3d-reveal` with the files of `<repo>/compositions/ui-3d-reveal` (its README and test folder stay behind). */
export async function copyDefaultComposition(appDir = APP_DIR, source = path.resolve(APP_DIR, '../../compositions', NAME)) {
  const target = path.join(appDir, 'public', 'compositions', NAME);
  // Its files only: the folder's test/ (and README) are not part of what renders.
  const files = (await readdir(source, { withFileTypes: true })).filter((entry) => entry.isFile() && entry.name !== 'README.md');
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const entry of files) await cp(path.join(source, entry.name), path.join(target, entry.name), { recursive: true });
  return target;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = await copyDefaultComposition();
  console.log(`seekframe: ${path.relative(process.cwd(), target) || target} copied from compositions/${NAME}`);
}
