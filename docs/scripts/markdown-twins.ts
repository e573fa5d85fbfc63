import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SIDEBAR } from '../.vitepress/sidebar.js';
import { DOCS_DIR } from './paths.js';

/**
 * The manual as Markdown, for agents and tools that read text rather than HTML: every page of the
 * sidebar (and the home page) as `<page>.md` beside its `.html`, and all of them in one
 * `llms-full.txt` (https://llmstxt.org). Written by the VitePress build (config.ts `buildEnd`),
 * from the same sources the HTML is built from: VitePress' `<!--@include: file{from,to}-->`
 * lines are resolved, the front matter becomes the page's title line and summary.
 */
export interface MarkdownTwin {
  /** Site path of the twin, e.g. `guide/getting-started.md`. */
  path: string;
  /** The page's title (front matter), for llms-full.txt's table of contents. */
  title: string;
  content: string;
}

const INCLUDE = /^<!--@include:\s*(.+?)(?:\{(\d*),(\d*)\})?\s*-->$/;
/** VitePress' code import: `<<< @/path` (`@` is docs/), shown as a fenced block of the file. */
const CODE_IMPORT = /^<<<\s+@\/(\S+?)(?:\{[^}]*\})?$/;

/** `{2,}` keeps lines 2 to the end, `{3,10}` lines 3 to 10 (1-based, inclusive), as VitePress does. */
async function resolveIncludes(text: string, file: string, depth = 0): Promise<string> {
  if (depth > 5) throw new Error(`${file}: includes nest deeper than 5 (a loop?)`);
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const code = CODE_IMPORT.exec(line.trim());
    if (code) {
      const target = path.join(DOCS_DIR, code[1]!);
      const language = path.extname(target).slice(1);
      out.push(`\`\`\`${language}`, (await readFile(target, 'utf8')).trimEnd(), '```');
      continue;
    }
    const match = INCLUDE.exec(line.trim());
    if (!match) {
      out.push(line);
      continue;
    }
    const target = path.resolve(path.dirname(file), match[1]!.trim());
    const lines = (await readFile(target, 'utf8')).split('\n');
    const from = match[2] ? Number(match[2]) - 1 : 0;
    const to = match[3] ? Number(match[3]) : lines.length;
    out.push(await resolveIncludes(lines.slice(from, to).join('\n'), target, depth + 1));
  }
  return out.join('\n');
}

/** Front matter fields we need; the rest (layout, hero) is the home page's HTML only. */
function splitFrontMatter(text: string): { title?: string; description?: string; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!match) return { body: text };
  const field = (name: string): string | undefined => {
    const value = new RegExp(`^${name}: (.+)$`, 'm').exec(match[1]!)?.[1]?.trim();
    if (!value) return undefined;
    if (value.startsWith('"')) return JSON.parse(value) as string;
    if (value.startsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
    return value;
  };
  return { title: field('title'), description: field('description'), body: text.slice(match[0].length) };
}

async function twin(link: string): Promise<MarkdownTwin> {
  const file = path.join(DOCS_DIR, `${link}.md`);
  const { title, description, body } = splitFrontMatter(await readFile(file, 'utf8'));
  // `## Title {#anchor}` is VitePress' way to pin an anchor; in plain Markdown it is noise.
  const text = (await resolveIncludes(body, file)).trim().replace(/^(#{1,6} .*?)\s+\{#[\w-]+\}\s*$/gm, '$1');
  const summary = description ? `> ${description}\n\n` : '';
  // The summary goes right under the page's H1; a page without one (the home page) gets its title.
  // The home page is all front matter (hero, features): its twin lists the manual's pages instead.
  const fallback = text === '' ? contents() : text;
  const content = fallback.startsWith('# ')
    ? text.replace(/\n/, `\n\n${summary}`.replace(/\n\n$/, '\n'))
    : `# ${title ?? link}\n\n${summary}${fallback}`;
  return { path: `${link.slice(1)}.md`, title: title ?? link, content: `${content.replace(/\n{3,}/g, '\n\n')}\n` };
}

/** The table of contents, linking the twins (`guide/getting-started.md`). */
function contents(): string {
  return SIDEBAR.map((group) => `## ${group.text}\n\n${group.items.map((item) => `- [${item.text}](.${item.link}.md)`).join('\n')}`).join(
    '\n\n',
  );
}

/** The site's pages in sidebar order, the home page first. */
export async function markdownTwins(): Promise<MarkdownTwin[]> {
  const links = ['/index', ...SIDEBAR.flatMap((group) => group.items.map((item) => item.link))];
  return Promise.all(links.map(twin));
}

/** Every page, one after another, each introduced by its site path. */
export function llmsFullTxt(twins: readonly MarkdownTwin[]): string {
  const parts = [
    '# Seekframe: the whole manual',
    '',
    '> Every page of the Seekframe manual as Markdown, in the order of its table of contents. Each page is',
    '> also at its own address with `.md` in place of `.html`; llms.txt is the short index.',
    '',
  ];
  for (const page of twins) parts.push('---', '', `<!-- /${page.path} -->`, '', page.content.trim(), '');
  return `${parts.join('\n').trimEnd()}\n`;
}
