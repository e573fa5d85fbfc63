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
  // A transcript the caption element cannot show right is an error, strict or not: captions in
  // the wrong place are worse than no render.
  const captions = issues.filter((issue) => declarations.find((d) => d.id === issue.id)?.type === 'captions');
  if (captions.length > 0) {
    throw new SeekframeError(
      'invalid-variables',
      `The captions in the variables are not a transcript ${file} can show:\n` +
        captions.map((issue) => `  ${issue.message}`).join('\n') +
        '\nFix the transcript (see Captions in the manual for its shape).',
      { stage: 'variables', details: { issues: captions.map((i) => ({ ...i })) } },
    );
  }
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
