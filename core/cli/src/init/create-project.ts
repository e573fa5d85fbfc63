import { cp, mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SeekframeError } from '@seekframe/composition';
import { readVersion } from '../read-version.js';
import { invalidArgument } from '../usage-error.js';
import { DEPLOY_TEMPLATES_DIR, isProjectTemplate, PROJECT_TEMPLATES, STARTER_LIBRARIES, STARTER_TEMPLATE_DIR, type ProjectTemplate } from './project-templates.js';
import { validateProjectName } from './validate-project-name.js';

export { STARTER_TEMPLATE_DIR } from './project-templates.js';

/** Files copied from the starter folder; `{{name}}` and `{{<library>Version}}` in them are filled in. */
const STARTER_FILES = ['index.html', 'README.md', 'gitignore'] as const;

export interface CreateProjectOptions {
  name: string;
  /** Folder the project folder is created in. */
  parentDir: string;
  /** `starter` (default): a composition; or a deploy template as a project of its own. */
  template?: string;
  /** Where the deploy templates are (default: the ones built into this package). */
  deployTemplatesDir?: string;
  /** Version of `seekframe` and `@seekframe/*` the project depends on (default: this CLI's). */
  version?: string;
}

export interface CreatedProject {
  dir: string;
  template: ProjectTemplate;
  /** Paths relative to `dir`, in the order written. */
  files: string[];
}

/** Creates `<parentDir>/<name>` from a template; refuses a non-empty folder. */
export async function createProject(options: CreateProjectOptions): Promise<CreatedProject> {
  const name = validateProjectName(options.name);
  const template = options.template ?? 'starter';
  if (!isProjectTemplate(template)) {
    throw invalidArgument('template', `Unknown template "${template}": use one of ${PROJECT_TEMPLATES.join(', ')}.`, { value: template });
  }
  const dir = path.resolve(options.parentDir, name);
  await assertUsableTarget(dir);
  const version = options.version ?? readVersion();
  const files =
    template === 'starter'
      ? await writeStarter(dir, name, version)
      : await copyDeployTemplate(path.join(options.deployTemplatesDir ?? DEPLOY_TEMPLATES_DIR, template), dir, name);
  return { dir, template, files };
}

async function writeStarter(dir: string, name: string, version: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const template of STARTER_FILES) {
    let text = (await readFile(path.join(STARTER_TEMPLATE_DIR, template), 'utf8')).replaceAll('{{name}}', name);
    for (const [library, libraryVersion] of Object.entries(STARTER_LIBRARIES)) text = text.replaceAll(`{{${library}Version}}`, libraryVersion);
    // npm drops files named .gitignore from published packages, so the template omits the dot.
    const target = template === 'gitignore' ? '.gitignore' : template;
    await writeNew(path.join(dir, target), text);
    files.push(target);
  }
  await writeNew(path.join(dir, 'package.json'), `${JSON.stringify(starterPackageJson(name, version), null, 2)}\n`);
  files.push('package.json');
  return files;
}

/**
 * The starter's package.json: the CLI and the composition's libraries are its own dependencies,
 * so `npm install` in the folder is all a render needs (nothing from a global install or a CDN).
 */
export function starterPackageJson(name: string, version: string): Record<string, unknown> {
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
    dependencies: {
      ...Object.fromEntries(Object.entries(STARTER_LIBRARIES).map(([library, libraryVersion]) => [library, `^${libraryVersion}`])),
      seekframe: `^${version}`,
    },
  };
}

/** A deploy template (built into dist/templates/<name>/) copied whole; package.json gets the project's name. */
async function copyDeployTemplate(source: string, dir: string, name: string): Promise<string[]> {
  const manifestFile = path.join(source, 'package.json');
  const manifest = await readFile(manifestFile, 'utf8').catch(() => {
    throw new SeekframeError('bundle-missing', `The deploy templates are not built (${manifestFile} is missing); run \`npm run build\` in the Seekframe checkout.`, {
      stage: 'config',
      details: { path: source },
    });
  });
  await mkdir(path.dirname(dir), { recursive: true });
  // errorOnExist + force:false: a file that appeared meanwhile is an error, never overwritten.
  await cp(source, dir, { recursive: true, errorOnExist: true, force: false });
  const files = await listFiles(dir);
  for (const file of files.filter((f) => path.basename(f) === 'gitignore')) {
    await rename(path.join(dir, file), path.join(dir, path.dirname(file), '.gitignore'));
  }
  await writeFile(path.join(dir, 'package.json'), `${JSON.stringify({ ...(JSON.parse(manifest) as Record<string, unknown>), name }, null, 2)}\n`);
  return (await listFiles(dir)).sort();
}

async function listFiles(root: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(root, relative)));
    else files.push(relative);
  }
  return files;
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
