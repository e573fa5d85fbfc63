// Writes every generated page and file (see generated-files.ts). Run by `npm run docs:build` before
// VitePress, and by hand after changing a command, an error code, an attribute or a schema.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatedFiles } from './generated-files.js';
import { REPO_DIR } from './paths.js';

for (const file of await generatedFiles()) {
  const target = path.join(REPO_DIR, file.path);
  const current = await readFile(target, 'utf8').catch(() => null);
  if (current === file.content) continue;
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, file.content);
  console.log(`docs: wrote ${file.path}`);
}
