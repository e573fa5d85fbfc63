import { readFile } from 'node:fs/promises';
import { SIDEBAR } from '../.vitepress/sidebar.js';
import { attributeTable, variableTables } from './composition-reference.js';
import { DOCS_DIR } from './paths.js';

/** The hand-written guide both files start from (one source: docs/agents/guide.md). */
async function guide(): Promise<string> {
  return (await readFile(`${DOCS_DIR}/agents/guide.md`, 'utf8')).trim();
}

/** The guide's H1 and body, with its headings moved one level down (for nesting under another H1). */
function demote(markdown: string): string {
  return markdown.replace(/^(#+) /gm, '#$1 ');
}

function references(heading: string): string {
  return [
    `${heading} Reference: composition attributes`,
    '',
    attributeTable(),
    '',
    `${heading} Reference: variable declarations`,
    '',
    variableTables(`${heading}#`),
  ].join('\n');
}

/**
 * AGENTS.md for the `seekframe init` starter: read by AI coding assistants working in the new
 * project. The guide, then the attribute and variable references generated from the code.
 */
export async function starterAgentsMd(): Promise<string> {
  const text = await guide();
  return [
    '<!-- Generated from docs/agents/guide.md and the composition package by docs/scripts/generate.ts in the Seekframe repository. -->',
    '',
    text,
    '',
    references('##'),
    '',
  ].join('\n');
}

/** The `description` of a page's front matter; generated pages are read from `generated`, not disk. */
async function pageDescription(link: string, generated: ReadonlyMap<string, string>): Promise<string> {
  const text = generated.get(`docs${link}.md`) ?? (await readFile(`${DOCS_DIR}${link}.md`, 'utf8'));
  const match = /^---\n[\s\S]*?^description: (.+)$[\s\S]*?^---$/m.exec(text);
  if (!match) throw new Error(`docs${link}.md has no description in its front matter; add one (llms.txt lists it)`);
  const value = match[1]!.trim();
  // A quoted YAML scalar (needed when the text has ": "): JSON's double quotes are YAML's too.
  if (value.startsWith('"')) return JSON.parse(value) as string;
  if (value.startsWith("'")) return value.slice(1, -1).replace(/''/g, "'");
  return value;
}

/**
 * llms.txt (https://llmstxt.org) at the site root: what Seekframe is, the same guide for writing
 * compositions, then every page of the manual with its description, in sidebar order.
 */
export async function llmsTxt(generated: ReadonlyMap<string, string>): Promise<string> {
  const lines = [
    '# Seekframe',
    '',
    '> Seekframe renders HTML compositions to video, correct to the frame: plain HTML with data-* timing',
    '> attributes and typed variables, opened in headless Chromium, seeked to every frame and encoded with',
    '> ffmpeg. The same page plays live in the browser, so the preview is the render.',
    '',
    'The whole manual in one file: [llms-full.txt](/llms-full.txt). Every page below is also Markdown at its',
    'own address with `.md` in place of `.html` (`/guide/studio.md`).',
    '',
    demote(await guide()),
    '',
    references('##'),
    '',
  ];
  for (const group of SIDEBAR) {
    lines.push(`## ${group.text}`, '');
    for (const item of group.items) lines.push(`- [${item.text}](${item.link}.html): ${await pageDescription(item.link, generated)}`);
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
