import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SeekframeError } from '@seekframe/composition';
import { validateProjectName } from './validate-project-name.js';

/** Shipped with the package (package.json `files`); from src/init and dist/init alike. */
export const STARTER_TEMPLATE_DIR = fileURLToPath(new URL('../../templates/starter/', import.meta.url));

/** Files copied from the template folder; `{{name}}` in them becomes the project name. */
const TEMPLATE_FILES = ['index.html', 'README.md', 'gitignore'] as const;

export interface CreateProjectOptions {
  name: string;
  /** Folder the project folder is created in. */
  parentDir: string;
}

export interface CreatedProject {
  dir: string;
  /** Paths relative to `dir`, in the order written. */
  files: string[];
}

/** Creates `<parentDir>/<name>` with a starter composition; refuses a non-empty folder. */
export async function createProject(options: CreateProjectOptions): Promise<CreatedProject> {
  const name = validateProjectName(options.name);
  const dir = path.resolve(options.parentDir, name);
  await assertUsableTarget(dir);
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const template of TEMPLATE_FILES) {
    const text = await readFile(path.join(STARTER_TEMPLATE_DIR, template), 'utf8');
    // npm drops files named .gitignore from published packages, so the template omits the dot.
    const target = template === 'gitignore' ? '.gitignore' : template;
    await writeNew(path.join(dir, target), text.replaceAll('{{name}}', name));
    files.push(target);
  }
  await writeNew(path.join(dir, 'package.json'), `${JSON.stringify(projectPackageJson(name), null, 2)}\n`);
  files.push('package.json');
  return { dir, files };
}

/** The project's own package.json: scripts call the `seekframe` CLI found on PATH / node_modules/.bin. */
function projectPackageJson(name: string): Record<string, unknown> {
  return {
    name,
    version: '0.1.0',
    private: true,
    description: 'A Seekframe composition: HTML rendered to video.',
    scripts: {
      preview: 'seekframe preview .',
      render: `seekframe render . --output renders/${name}.mp4`,
      lint: 'seekframe lint .',
    },
  };
}

async function assertUsableTarget(dir: string): Promise<void> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!info) return;
  if (!info.isDirectory()) {
    throw new SeekframeError('target-exists', `${dir} already exists and is not a folder; choose another project name or --dir.`, {
      stage: 'config',
      details: { path: dir },
    });
  }
  const entries = await readdir(dir);
  if (entries.length > 0) {
    throw new SeekframeError(
      'target-not-empty',
      `${dir} already exists and is not empty (${entries.length} entries); choose another project name or --dir, ` +
        'or empty that folder first. seekframe init never overwrites files.',
      { stage: 'config', details: { path: dir } },
    );
  }
}

/** `wx`: a file that appeared meanwhile is an error, never overwritten. */
async function writeNew(file: string, text: string): Promise<void> {
  await writeFile(file, text, { flag: 'wx' });
}
