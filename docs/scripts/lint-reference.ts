import { LINT_RULE_IDS, LINT_RULES, type LintRuleDoc } from '@seekframe/composition';
import { generatedNotice } from './generated-notice.js';
import { cell } from './markdown-table.js';

const SEVERITY_WORDS: Record<LintRuleDoc['severity'], string> = {
  error: 'stops the render: the composition cannot render as written',
  warning: 'renders, but probably not as meant',
  info: 'a note on how a valid composition is read (where a length comes from): nothing to fix',
};

/** The example as a reader would write it: the entry alone, or each file under its name; files it names that cannot be read, said. */
function exampleBlock(example: LintRuleDoc['example'], unreadable: readonly string[] = []): string[] {
  const files = typeof example === 'string' ? { 'index.html': example } : example;
  return [
    ...Object.entries(files).flatMap(([name, text]) => [
      ...(typeof example === 'string' ? [] : [`\`${name}\``, '']),
      name.endsWith('.html') ? '```html' : '```text',
      text,
      '```',
      '',
    ]),
    ...(unreadable.length > 0 ? [`with ${unreadable.map((file) => `\`${file}\``).join(', ')} in the folder but not readable.`, ''] : []),
  ];
}

/** docs/reference/lint-rules.md: the table and one section with an example per rule, from LINT_RULES. */
export function lintReference(): string {
  const lines = [
    '---',
    'title: "Lint rules"',
    'description: "Every rule seekframe lint reports: its severity, when it fires, the fix and an example."',
    '---',
    '',
    generatedNotice('LINT_RULES in core/composition/src/lint-rules.ts'),
    '',
    '# Lint rules',
    '',
    "`seekframe lint`, the studio's lint panel, `seekframe check` and the render's first stage report these.",
    'Each finding is `file:line:col severity rule message`; the message names the file, the attribute and the fix.',
    'How to run lint and read its output: [Troubleshooting](../guide/troubleshooting.md#lint-rules).',
    '',
    ...(['error', 'warning', 'info'] as const).map((s) => `- \`${s}\`: ${SEVERITY_WORDS[s]}.`),
    '',
    '| rule | severity | when |',
    '|---|---|---|',
    ...LINT_RULE_IDS.map((id) => `| [\`${id}\`](#${anchor(id)}) | ${LINT_RULES[id].severity} | ${cell(LINT_RULES[id].when)} |`),
    '',
  ];
  for (const id of LINT_RULE_IDS) {
    const rule: LintRuleDoc = LINT_RULES[id];
    lines.push(`## \`${id}\` {#${anchor(id)}}`, '', `**${rule.severity}**: ${rule.when}`, '', `Fix: ${rule.fix}`, '', 'Example:', '');
    lines.push(...exampleBlock(rule.example, 'unreadable' in rule ? rule.unreadable : []));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function anchor(id: string): string {
  return id.replace(/\//g, '-');
}
