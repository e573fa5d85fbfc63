import { describe, expect, test } from 'vitest';
import { lintProject } from './lint-project.js';
import { LINT_RULE_IDS, LINT_RULES } from './lint-rules.js';

/** Lints a registry example: `index.html` is the entry, fonts count as not installed. */
async function lintExample(example: string | Record<string, string>) {
  const files = typeof example === 'string' ? { 'index.html': example } : example;
  return lintProject('index.html', {
    readFile: async (path) => files[path],
    fontPackageInstalled: async () => false,
  });
}

describe('LINT_RULES', () => {
  test.each(LINT_RULE_IDS)('the example of %s triggers it, with the registry severity', async (rule) => {
    const findings = await lintExample(LINT_RULES[rule].example);
    const hit = findings.find((f) => f.rule === rule);
    expect(hit, `${rule}: ${JSON.stringify(findings.map((f) => f.rule))}`).toBeDefined();
    expect(hit?.severity).toBe(LINT_RULES[rule].severity);
  });

  test('every finding of every example has the severity its rule is registered with', async () => {
    for (const rule of LINT_RULE_IDS) {
      for (const finding of await lintExample(LINT_RULES[rule].example)) {
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
