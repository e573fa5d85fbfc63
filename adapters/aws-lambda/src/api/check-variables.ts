import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { extractCompositionMetadata, validateOverrides } from '@seekframe/composition';
import { lambdaError } from '../errors.js';

/**
 * The render API contract checks variables strictly against the composition's declarations
 * before a render starts (400 invalid-variables, every problem in details.problems). The API
 * function can do that for the composition deployed with it; an uploaded project is checked by
 * the plan step (strictVariables), which fails the render with the same code.
 */
export async function checkVariablesAgainst(projectDir: string, variables: Record<string, unknown> | undefined): Promise<void> {
  if (!variables || Object.keys(variables).length === 0) return;
  const html = await readFile(path.join(projectDir, 'index.html'), 'utf8');
  const metadata = extractCompositionMetadata(html);
  const issues = validateOverrides(metadata.variables, variables);
  if (issues.length === 0) return;
  const problems = issues.map((issue) => ({ id: issue.id, kind: issue.kind, ...(issue.expected ? { expected: issue.expected } : {}), message: issue.message }));
  throw lambdaError('invalid-variables', `${problems.length} variable problem(s) in composition "${metadata.id}": ${problems.map((p) => p.message).join('; ')}.`, {
    stage: 'variables',
    details: { problems },
  });
}
