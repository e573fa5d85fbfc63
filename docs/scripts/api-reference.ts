import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Application, type DeclarationReflection, ReflectionKind, type TypeDocOptions } from 'typedoc';
import type { PluginOptions } from 'typedoc-plugin-markdown';
import type { GeneratedFile } from './generated-files.js';
import { generatedNotice } from './generated-notice.js';
import { DOCS_DIR } from './paths.js';

/**
 * The programmatic API reference: one page per area a user calls from code (docs/api-entries/*.ts
 * re-export what belongs to each, with its own introduction), made by TypeDoc from the packages'
 * exported types and doc comments, as Markdown for the site (typedoc-plugin-markdown).
 */
export const API_ENTRIES = ['render-from-node', 'producer-server', 'render-api', 'lambda-client', 'webhooks', 'player'] as const;

const OUT = 'docs/reference/api';

/** Front matter from the entry's `@module` title and the first sentence of its introduction. */
async function frontMatter(entry: string): Promise<{ title: string; description: string }> {
  const text = await readFile(path.join(DOCS_DIR, 'api-entries', `${entry}.ts`), 'utf8');
  const title = /@module (.+)/.exec(text)?.[1]?.trim() ?? entry;
  const intro = /\/\*\*\n([\s\S]*?)\n \*\//.exec(text)?.[1] ?? '';
  const prose = intro
    .split('\n')
    .map((line) => line.replace(/^ \* ?/, ''))
    .join(' ')
    .split(/```|@module/)[0]!;
  const description = (/^(.+?\.)(\s|$)/.exec(prose.trim())?.[1] ?? title).replace(/`/g, '');
  return { title, description };
}

export async function apiReference(): Promise<GeneratedFile[]> {
  const out = await mkdtemp(path.join(os.tmpdir(), 'seekframe-api-reference-'));
  try {
    const options: Partial<TypeDocOptions & PluginOptions> = {
      entryPoints: API_ENTRIES.map((entry) => path.join(DOCS_DIR, 'api-entries', `${entry}.ts`)),
      tsconfig: path.join(DOCS_DIR, 'api-entries', 'tsconfig.json'),
      plugin: ['typedoc-plugin-markdown'],
      out,
      outputFileStrategy: 'modules',
      readme: 'none',
      entryFileName: 'index',
      hidePageHeader: true,
      hideBreadcrumbs: true,
      disableSources: true,
      excludePrivate: true,
      excludeInternal: true,
      excludeExternals: false,
      useCodeBlocks: true,
      parametersFormat: 'table',
      typeDeclarationFormat: 'table',
      sanitizeComments: true,
      logLevel: 'Warn',
      // The packages are type-checked by their own builds; TypeDoc only reads their declarations.
      skipErrorChecking: true,
      githubPages: false,
      validation: { notExported: false, invalidLink: false, rewrittenLink: false },
    };
    const app = await Application.bootstrapWithPlugins(options);
    const project = await app.convert();
    if (!project) throw new Error('TypeDoc could not convert docs/api-entries (see the messages above)');
    // Our classes' own members only: the player extends HTMLElement, whose hundreds of members
    // are the browser's, documented by the browser's vendors.
    // (The groups the pages are rendered from were made during conversion: they are filtered too.)
    for (const owner of project.getReflectionsByKind(ReflectionKind.Class) as DeclarationReflection[]) {
      for (const child of [...(owner.children ?? [])]) if (child.inheritedFrom) project.removeReflection(child);
      for (const group of owner.groups ?? [])
        group.children = group.children.filter((child) => !('inheritedFrom' in child && child.inheritedFrom));
      owner.groups = owner.groups?.filter((group) => group.children.length > 0);
    }
    await app.generateOutputs(project);
    const written = new Set(await readdir(out));
    // Pages are named after the @module titles; a link from one page to another follows our names.
    const pageNames = new Map<string, string>();
    for (const entry of API_ENTRIES) pageNames.set(`${(await frontMatter(entry)).title.replace(/ /g, '-')}.md`, `${entry}.md`);
    const relink = (text: string): string =>
      text.replace(/\]\(([^)#\s]+\.md)(#[^)]*)?\)/g, (link, target: string, hash = '') =>
        pageNames.has(target) ? `](./${pageNames.get(target)}${hash})` : link,
      );
    const files: GeneratedFile[] = [];
    for (const entry of API_ENTRIES) {
      const { title, description } = await frontMatter(entry);
      // typedoc-plugin-markdown names a module's page after its @module title.
      const name = `${title.replace(/ /g, '-')}.md`;
      if (!written.has(name)) continue;
      const body = relink((await readFile(path.join(out, name), 'utf8')).trim());
      files.push({
        path: `${OUT}/${entry}.md`,
        content: [
          '---',
          `title: ${JSON.stringify(title)}`,
          `description: ${JSON.stringify(description)}`,
          '---',
          '',
          generatedNotice(`the exported types and doc comments, through docs/api-entries/${entry}.ts (TypeDoc)`),
          '',
          `# ${title}`,
          '',
          body.replace(/^# .*\n+/, ''),
          '',
        ].join('\n'),
      });
    }
    const missing = API_ENTRIES.filter((entry) => !files.some((file) => file.path === `${OUT}/${entry}.md`));
    if (missing.length > 0) throw new Error(`TypeDoc wrote no page for ${missing.join(', ')}`);
    return files;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
