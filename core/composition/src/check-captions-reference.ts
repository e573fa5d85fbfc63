import { attrLocation, getAttr, type HtmlElement, type SourceLocation } from './html-tree.js';
import type { LintRuleId } from './lint-rules.js';
import type { VariableDeclaration } from './variable-declarations.js';
import { ATTR } from './composition-attributes.js';

type Add = (rule: LintRuleId, at: SourceLocation, message: string) => void;

/**
 * A `data-captions` element must name a variable of type `captions` declared by its own
 * composition file: lint says so with the line, before a render gets as far as the page (whose
 * runtime reports the same for elements a script adds).
 */
export function checkCaptionsReference(element: HtmlElement, variables: readonly VariableDeclaration[], add: Add): void {
  const id = getAttr(element, ATTR.captions);
  if (id === undefined) return;
  const at = attrLocation(element, ATTR.captions);
  const declaration = variables.find((v) => v.id === id);
  const captions = variables.filter((v) => v.type === 'captions').map((v) => `"${v.id}"`);
  const choose = captions.length > 0 ? `name one of ${captions.join(', ')}, or declare` : 'declare';
  if (!declaration) {
    add(
      'variables/unknown-reference',
      at,
      `data-captions="${id}" names no variable of this composition; ${choose} {"id":"${id}","type":"captions","label":"Captions","default":[]} in data-composition-variables`,
    );
  } else if (declaration.type !== 'captions') {
    add(
      'variables/reference-type',
      at,
      `data-captions="${id}" names a variable of type ${declaration.type}; the caption element shows a variable of type "captions" (a transcript with word times): ${captions.length > 0 ? `name one of ${captions.join(', ')}, or change its type` : `change the type of "${id}" to "captions"`}`,
    );
  }
}
