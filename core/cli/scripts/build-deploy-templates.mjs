// Builds what `seekframe init <name> --template <target>` copies: each deploy template of this
// repository (apps/<target>) as a project of its own, in dist/templates/<target>/.
//   - the app's files, without build output, local state and the monorepo's tests;
//   - files of apps/<target>/standalone/ in place of their monorepo versions (e.g. vercel.json,
//     which in the monorepo installs and builds from the repository root);
//   - the bundled composition (compositions/ui-3d-reveal) where the template reads it;
//   - files the app uses from elsewhere in the repository (repositoryFiles), copied in;
//   - AGENTS.md: the starter's guide for AI coding assistants, with where this template keeps its
//     composition;
//   - package.json depending on the @seekframe/* versions of this checkout (never workspace: or
//     file:), tsconfig files without the repository's base config or its `source` condition.
// Dot files npm would leave out of a tarball (.gitignore, .dockerignore) are stored without the dot;
// `seekframe init` puts it back (DOT_FILES there and here list the same names).
// Run by `npm run build` of the CLI; `buildDeployTemplates({ outDir })` is what tests call.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const CLI_DIR = path.resolve(here, '..');
const REPO = path.resolve(CLI_DIR, '../..');
export const DEFAULT_OUT_DIR = path.join(CLI_DIR, 'dist/templates');

/** The default composition every template previews and renders, and where each reads it. */
export const BUNDLED_COMPOSITION = 'ui-3d-reveal';
export const TEMPLATES = {
  'modal-function': { compositionDir: 'compositions/ui-3d-reveal', omitScripts: [] },
  'vercel-sandbox': {
    compositionDir: 'public/compositions/ui-3d-reveal',
    // In the monorepo `predev` copies the repository's composition into public/; a project has its own copy.
    // `dev:local` is the monorepo's old name for `dev` (the manual still names it).
    omitScripts: ['predev', 'predev:vercel', 'dev:local'],
    omitFiles: ['scripts/copy-default-composition.mjs'],
    // The monorepo's turbo `build` must not run `next build`; a project's `npm run build` does.
    addScripts: { build: 'next build' },
  },
  'cloudflare-container': {
    compositionDir: 'compositions/ui-3d-reveal',
    omitScripts: [],
    // The container image's helpers, shared in the repository with the --docker render image
    // (infra/docker); scripts/build.mjs looks for them in scripts/ first.
    repositoryFiles: {
      'scripts/apt-install-pinned.sh': 'infra/docker/apt-install-pinned.sh',
      'scripts/stage-packages.mjs': 'infra/docker/stage-packages.mjs',
    },
  },
};

/** Stored without their dot; `seekframe init` renames them back. */
export const DOT_FILES = ['.gitignore', '.dockerignore'];

/** Never part of a template: build output, installs, local state, the monorepo's own tests. */
const SKIP_NAMES = new Set([
  'node_modules',
  'dist',
  '.next',
  '.turbo',
  '.wrangler',
  '.vercel',
  '.modal-local',
  '.seekframe',
  '__pycache__',
  'test',
  'standalone',
  'next-env.d.ts',
  '.dev.vars',
]);
const SKIP_PATTERNS = [/\.tsbuildinfo$/, /^\.test-container-/, /^\.env.*\.local$/];

async function listFiles(root, prefix = '') {
  const files = [];
  for (const entry of await readdir(path.join(root, prefix), { withFileTypes: true })) {
    if (SKIP_NAMES.has(entry.name) || SKIP_PATTERNS.some((pattern) => pattern.test(entry.name))) continue;
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(root, relative)));
    else if (entry.isFile()) files.push(relative);
  }
  return files.sort();
}

/** Versions of this checkout's workspace packages, by name. */
async function workspaceVersions() {
  const versions = new Map();
  for (const group of ['core', 'adapters']) {
    for (const entry of await readdir(path.join(REPO, group), { withFileTypes: true })) {
      const file = path.join(REPO, group, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(file)) continue;
      const pkg = JSON.parse(await readFile(file, 'utf8'));
      versions.set(pkg.name, pkg.version);
    }
  }
  return versions;
}

/** The app's package.json as the project's: published versions, no monorepo-only scripts. */
function projectManifest(manifest, versions, template) {
  const pin = (deps) => {
    if (!deps) return deps;
    const out = {};
    for (const [name, range] of Object.entries(deps)) {
      if (versions.has(name)) out[name] = versions.get(name);
      else if (/^(workspace:|file:|link:|\.\.?\/)/.test(range))
        throw new Error(`apps/${template}: dependency ${name} is "${range}"; a template depends on registry versions only`);
      else out[name] = range;
    }
    return out;
  };
  const scripts = { ...manifest.scripts };
  for (const name of TEMPLATES[template].omitScripts) delete scripts[name];
  Object.assign(scripts, TEMPLATES[template].addScripts);
  // `seekframe init` sets the name; everything else is the app's own.
  return {
    ...manifest,
    name: 'seekframe-template',
    scripts,
    dependencies: pin(manifest.dependencies),
    devDependencies: pin(manifest.devDependencies),
  };
}

/** A tsconfig that stands alone: the repository's base options inlined, no `source` condition. */
async function standaloneTsconfig(text, file) {
  const config = JSON.parse(text);
  let base = {};
  if (typeof config.extends === 'string') {
    const target = path.resolve(path.dirname(file), config.extends);
    if (target !== path.join(REPO, 'tsconfig.base.json'))
      throw new Error(`${file} extends ${config.extends}; a template's tsconfig may only extend tsconfig.base.json`);
    base = JSON.parse(await readFile(target, 'utf8')).compilerOptions ?? {};
  }
  const options = { ...base, ...config.compilerOptions };
  delete options.customConditions;
  if (Array.isArray(options.types)) options.types = options.types.filter((type) => !type.startsWith('vitest'));
  const { extends: _extends, ...rest } = config;
  const include = Array.isArray(rest.include) ? rest.include.filter((entry) => !/(^|\/)test(\/|$)/.test(entry)) : rest.include;
  return `${JSON.stringify({ ...rest, compilerOptions: options, ...(include ? { include } : {}) }, null, 2)}\n`;
}

/**
 * The starter's AGENTS.md (generated from docs/agents/guide.md), opened with what is particular to
 * a deploy template: where its composition lives and which files are the app around it.
 */
async function templateAgentsMd(compositionDir) {
  const guide = await readFile(path.join(CLI_DIR, 'templates/starter/AGENTS.md'), 'utf8');
  const [notice, ...rest] = guide.split('\n');
  return [
    notice,
    '',
    '# This project',
    '',
    `A Seekframe deploy template: an app that previews and renders the composition in \`${compositionDir}/\``,
    '(its `index.html` is the entry). Change the video there; the rest of the project is the app around it',
    '(README.md says which files and settings are which). Check a change with',
    `\`npx seekframe lint ${compositionDir}\` and \`npx seekframe check ${compositionDir}\` before a render.`,
    '',
    ...rest,
  ].join('\n');
}

/** Copies one app into outDir/<template> as a standalone project; returns its file list. */
export async function buildTemplate(template, outDir = DEFAULT_OUT_DIR) {
  const settings = TEMPLATES[template];
  if (!settings) throw new Error(`unknown template ${template}`);
  const appDir = path.join(REPO, 'apps', template);
  const target = path.join(outDir, template);
  await rm(target, { recursive: true, force: true });
  const versions = await workspaceVersions();
  const standaloneDir = path.join(appDir, 'standalone');
  const overlay = existsSync(standaloneDir) ? await listFiles(standaloneDir) : [];
  const omit = new Set([...(settings.omitFiles ?? []), ...overlay]);
  const written = [];
  const write = async (relative, content) => {
    const base = path.basename(relative);
    const stored = DOT_FILES.includes(base) ? path.join(path.dirname(relative), base.slice(1)) : relative;
    if (path.basename(stored).startsWith('.'))
      throw new Error(`apps/${template}/${relative}: npm may leave dot files out of the CLI's tarball; add a rename for it here`);
    await mkdir(path.dirname(path.join(target, stored)), { recursive: true });
    await writeFile(path.join(target, stored), content);
    written.push(stored);
  };
  for (const relative of await listFiles(appDir)) {
    if (omit.has(relative) || relative.startsWith(`${settings.compositionDir}/`)) continue;
    const source = path.join(appDir, relative);
    let content = await readFile(source);
    if (relative === 'package.json')
      content = `${JSON.stringify(projectManifest(JSON.parse(content.toString('utf8')), versions, template), null, 2)}\n`;
    else if (/(^|\/)tsconfig[^/]*\.json$/.test(relative)) content = await standaloneTsconfig(content.toString('utf8'), source);
    else if (relative === 'wrangler.jsonc') content = content.toString('utf8').replace('"../../node_modules/', '"./node_modules/');
    await write(relative, content);
  }
  for (const relative of overlay) await write(relative, await readFile(path.join(standaloneDir, relative)));
  for (const [relative, source] of Object.entries(settings.repositoryFiles ?? {}))
    await write(relative, await readFile(path.join(REPO, source)));
  await write('AGENTS.md', await templateAgentsMd(settings.compositionDir));
  // The composition's own files; its tests stay in the repository.
  const composition = path.join(REPO, 'compositions', BUNDLED_COMPOSITION);
  for (const relative of await listFiles(composition)) {
    await mkdir(path.dirname(path.join(target, settings.compositionDir, relative)), { recursive: true });
    await cp(path.join(composition, relative), path.join(target, settings.compositionDir, relative));
    written.push(`${settings.compositionDir}/${relative}`);
  }
  return written.sort();
}

export async function buildDeployTemplates({ outDir = DEFAULT_OUT_DIR } = {}) {
  const built = {};
  for (const template of Object.keys(TEMPLATES)) built[template] = await buildTemplate(template, outDir);
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildDeployTemplates();
}
