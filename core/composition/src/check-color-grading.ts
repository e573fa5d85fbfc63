import { attrLocation, attrValueLocator, getAttr, type HtmlElement, type SourceLocation } from './html-tree.js';
import type { LintFinding } from './lint-finding.js';
import { jsonErrorOffset, locateJsonPath, shortJsonError, type JsonPath } from './locate-json-path.js';
import type { VariableDeclaration } from './variable-declarations.js';

type Add = (rule: string, severity: LintFinding['severity'], at: SourceLocation, message: string) => void;

/** `$name` or `${name}` as a field's whole value takes the composition variable `name`. */
const REFERENCE = /^\$(?:\{([A-Za-z_][\w-]*)\}|([A-Za-z_][\w-]*))$/;

export function variableReference(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = REFERENCE.exec(value);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * `data-color-grading` must be JSON, and every `$name` in it must name a declared variable;
 * otherwise the grading silently gets a literal "$name" at render time.
 */
export function checkColorGrading(source: string, element: HtmlElement, variables: readonly VariableDeclaration[], add: Add): void {
  const text = getAttr(element, 'data-color-grading');
  if (text === undefined) return;
  const locate = attrValueLocator(source, element, 'data-color-grading');
  const fallback = attrLocation(element, 'data-color-grading');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const offset = jsonErrorOffset(reason, text);
    add('media/malformed-color-grading', 'error', locate && offset !== undefined ? locate(offset) : fallback, `data-color-grading is not valid JSON (${shortJsonError(reason)}); write a JSON object like {"contrast":1.1}`);
    return;
  }
  const declared = new Set(variables.map((v) => v.id));
  const visit = (value: unknown, path: (string | number)[]): void => {
    const name = variableReference(value);
    if (name !== undefined && !declared.has(name)) {
      const at = locate ? locate(locateJsonPath(text, path as JsonPath)) : fallback;
      const known = [...declared].join(', ') || 'none';
      add('variables/unknown-reference', 'warning', at, `data-color-grading uses "${String(value)}", but no variable "${name}" is declared (declared: ${known}); declare it in data-composition-variables or fix the name`);
    }
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i]));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
  };
  visit(json, []);
}
