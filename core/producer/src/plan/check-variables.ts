import { SeekframeError, validateOverrides, type VariableDeclaration, type VariableIssue } from '@seekframe/composition';

/**
 * Checks top-level overrides against the entry's declarations. Issues are warnings, or one
 * `invalid-variables` error under strictVariables (nothing is rendered then).
 */
export function checkVariables(
  declarations: readonly VariableDeclaration[],
  overrides: Record<string, unknown> | undefined,
  strict: boolean,
  file: string,
): VariableIssue[] {
  if (!overrides) return [];
  const issues = validateOverrides([...declarations], overrides);
  if (strict && issues.length > 0) {
    throw new SeekframeError(
      'invalid-variables',
      `The variables do not match what ${file} declares (--strict-variables):\n` +
        issues.map((issue) => `  ${issue.message}`).join('\n') +
        `\nDeclared: ${declarations.map((d) => `${d.id} (${d.type})`).join(', ') || 'none'}. Fix the values, or drop --strict-variables to render anyway.`,
      { stage: 'variables', details: { issues: issues.map((i) => ({ ...i })) } },
    );
  }
  return issues;
}
