import type { GradingField } from './color-grading-schema.js';
import { attrLocation, attrValueLocator, getAttr, hasAttr, type HtmlElement, type SourceLocation } from './html-tree.js';
import type { LintRuleId } from './lint-rules.js';
import { jsonErrorOffset, locateJsonPath, shortJsonError, type JsonPath } from './locate-json-path.js';
import { parseColorGrading, type GradingProblem, type ReferenceLookup } from './parse-color-grading.js';
import type { VariableDeclaration } from './variable-declarations.js';
import { ATTR } from './composition-attributes.js';

export { variableReference } from './parse-color-grading.js';

type Add = (rule: LintRuleId, at: SourceLocation, message: string) => void;

const RULES: Record<GradingProblem['kind'], LintRuleId> = {
  json: 'media/malformed-color-grading',
  'invalid-field': 'media/invalid-color-grading',
  'unknown-field': 'media/invalid-color-grading',
  'undeclared-reference': 'variables/unknown-reference',
  'reference-type': 'variables/reference-type',
};

/** Which declared types can feed a field: numbers feed numbers, strings/enums feed names and paths. */
function declarationTypeError(declaration: VariableDeclaration, field: GradingField): string | undefined {
  const kinds = declaration.type === 'enum' ? new Set(declaration.options.map((o) => typeof o.value)) : undefined;
  const fits =
    field.kind === 'number'
      ? declaration.type === 'number' || (kinds !== undefined && kinds.size === 1 && kinds.has('number'))
      : field.kind === 'color'
        ? declaration.type === 'color'
        : declaration.type === 'string' || (kinds !== undefined && kinds.size === 1 && kinds.has('string'));
  if (fits) return undefined;
  const wanted =
    field.kind === 'number' ? 'a number (or an enum of numbers)' : field.kind === 'color' ? 'a color' : 'a string (or an enum of strings)';
  return `variable "${declaration.id}" is declared as ${declaration.type} and this field needs ${wanted}`;
}

export function declarationLookup(variables: readonly VariableDeclaration[]): ReferenceLookup {
  const byId = new Map(variables.map((v) => [v.id, v]));
  return (name, field) => {
    const declaration = byId.get(name);
    if (!declaration) return undefined;
    const typeError = declarationTypeError(declaration, field);
    return typeError === undefined ? { value: declaration.default } : { value: declaration.default, typeError };
  };
}

/** Elements whose pixels the runtime grades; anywhere else the attribute does nothing. */
export function isGradable(element: HtmlElement): boolean {
  return element.tagName === 'img' || element.tagName === 'video' || hasAttr(element, ATTR.compositionSrc);
}

/**
 * `data-color-grading` must be JSON that fits the schema (fields, ranges, no unknown names), and
 * every `$name` must name a declared variable of a fitting type (checked with its default), so
 * nothing is silently left ungraded at render time. LUT files are checked by `checkGradingLuts`.
 */
export function checkColorGrading(source: string, element: HtmlElement, variables: readonly VariableDeclaration[], add: Add): void {
  const text = getAttr(element, ATTR.colorGrading);
  if (text === undefined) return;
  const locate = attrValueLocator(source, element, ATTR.colorGrading);
  const fallback = attrLocation(element, ATTR.colorGrading);
  if (!isGradable(element)) {
    add(
      'media/color-grading-ignored',
      fallback,
      `data-color-grading on <${element.tagName}> does nothing; only <img>, <video> and sub-composition hosts are graded — move it to one of those`,
    );
  }
  const { problems } = parseColorGrading(text, declarationLookup(variables));
  const known = variables.map((v) => v.id).join(', ') || 'none';
  for (const problem of problems) {
    if (problem.kind === 'json') {
      const offset = jsonErrorOffset(problem.reason ?? '', text);
      add(
        RULES.json,
        locate && offset !== undefined ? locate(offset) : fallback,
        `data-color-grading is not valid JSON (${shortJsonError(problem.reason ?? '')}); write a JSON object like {"adjust":{"contrast":1.1}}`,
      );
      continue;
    }
    const at = locate ? locate(locateJsonPath(text, problem.path as JsonPath)) : fallback;
    const fix =
      problem.kind === 'undeclared-reference'
        ? ` (declared: ${known}); declare it in data-composition-variables or fix the name`
        : problem.kind === 'reference-type'
          ? '; reference a variable of the right type or change its declaration'
          : '';
    add(
      RULES[problem.kind],
      at,
      `data-color-grading ${problem.kind === 'unknown-field' || problem.kind === 'invalid-field' ? 'field ' : ''}${problem.message}${fix}`,
    );
  }
}
