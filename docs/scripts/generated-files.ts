import { starterAgentsMd, llmsTxt } from './agent-files.js';
import { apiReference } from './api-reference.js';
import { checkingGuide } from './check-rules-table.js';
import { cliReference } from './cli-reference.js';
import { attributeReference, variableReference } from './composition-reference.js';
import { errorReference } from './error-reference.js';
import { jsonReference } from './json-reference.js';
import { lintReference } from './lint-reference.js';
import { renderApiReference } from './render-api-reference.js';
import { renderServerPage } from './serve-settings-table.js';

export interface GeneratedFile {
  /** Relative to the repository root. */
  path: string;
  content: string;
}

/**
 * Every file made from the code rather than written by hand. `npm run docs:generate` writes them;
 * docs/test/generated-files.test.ts makes them again and fails when a committed one differs.
 */
export async function generatedFiles(): Promise<GeneratedFile[]> {
  const references: GeneratedFile[] = [
    { path: 'docs/reference/cli.md', content: await cliReference() },
    { path: 'docs/reference/errors.md', content: errorReference() },
    { path: 'docs/reference/attributes.md', content: attributeReference() },
    { path: 'docs/reference/variables.md', content: variableReference() },
    { path: 'docs/reference/json-output.md', content: jsonReference() },
    { path: 'docs/reference/lint-rules.md', content: lintReference() },
    { path: 'docs/reference/render-api.md', content: renderApiReference() },
    { path: 'docs/guide/checking.md', content: await checkingGuide() },
    ...(await apiReference()),
  ];
  const byPath = new Map(references.map((file) => [file.path, file.content]));
  return [
    ...references,
    await renderServerPage(),
    { path: 'docs/public/llms.txt', content: await llmsTxt(byPath) },
    { path: 'core/cli/templates/starter/AGENTS.md', content: await starterAgentsMd() },
  ];
}
