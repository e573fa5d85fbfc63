import { readFile } from 'node:fs/promises';
import { CHECK_RULES } from 'seekframe';
import { cell } from './markdown-table.js';
import { DOCS_DIR } from './paths.js';

const START =
  '<!-- check-rules:start (generated from CHECK_RULES in core/producer/src/check/check-rules.ts by npm run docs:generate; edit the source) -->';
const END = '<!-- check-rules:end -->';

/** The table of every finding `seekframe check` reports: code, severity and why, when, fix. */
export function checkRulesTable(): string {
  const rows = Object.entries(CHECK_RULES).map(
    ([code, rule]) => `| \`${code}\` | ${cell(rule.severity)}: ${cell(rule.why)} | ${cell(rule.when)} | ${cell(rule.fix)} |`,
  );
  return ['| code | severity, and why | when | usual fix |', '|---|---|---|---|', ...rows].join('\n');
}

/**
 * docs/guide/checking.md with its rule table made from CHECK_RULES: the page is written by hand,
 * only the text between the check-rules markers is generated, so the table cannot drift from
 * what the check reports.
 */
export async function checkingGuide(): Promise<string> {
  const file = `${DOCS_DIR}/guide/checking.md`;
  const page = await readFile(file, 'utf8');
  const start = page.indexOf('<!-- check-rules:start');
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${file} has no ${START} ... ${END} block; put one where the rule table goes`);
  return `${page.slice(0, start)}${START}\n\n${checkRulesTable()}\n\n${page.slice(end)}`;
}
