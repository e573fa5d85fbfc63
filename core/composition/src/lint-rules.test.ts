import { describe, expect, test } from 'vitest';
import { LINT_RULE_IDS, LINT_RULES, type LintRuleDoc } from './lint-rules.js';
import { preflightProject } from './preflight-project.js';

/**
 * Lints a registry example with the preflight every caller runs: `index.html` is the entry, the
 * example's files exist (its `unreadable` ones unreadable), fonts count as not installed.
 */
async function lintExample(rule: Pick<LintRuleDoc, 'example' | 'unreadable'>) {
  const files: Record<string, string> = typeof rule.example === 'string' ? { 'index.html': rule.example } : rule.example;
  return preflightProject('index.html', {
    readFile: async (path) => files[path],
    fontPackageInstalled: async () => false,
    fileStatus: async (path) => (rule.unreadable?.includes(path) ? 'unreadable' : path in files ? 'file' : 'missing'),
  });
}

describe('LINT_RULES', () => {
  test.each(LINT_RULE_IDS)('the example of %s triggers it, with the registry severity', async (rule) => {
    const findings = await lintExample(LINT_RULES[rule]);
    const hit = findings.find((f) => f.rule === rule);
    expect(hit, `${rule}: ${JSON.stringify(findings.map((f) => f.rule))}`).toBeDefined();
    expect(hit?.severity).toBe(LINT_RULES[rule].severity);
  });

  test('every finding of every example has the severity its rule is registered with', async () => {
    for (const rule of LINT_RULE_IDS) {
      for (const finding of await lintExample(LINT_RULES[rule])) {
        expect(finding.severity, `${finding.rule} in the example of ${rule}`).toBe(LINT_RULES[finding.rule].severity);
      }
    }
  });

  test('each entry says when it fires and what to do, as sentences', () => {
    for (const rule of LINT_RULE_IDS) {
      expect(LINT_RULES[rule].when, rule).toMatch(/\.$/);
      expect(LINT_RULES[rule].fix, rule).toMatch(/[.)]$/);
    }
  });
});
