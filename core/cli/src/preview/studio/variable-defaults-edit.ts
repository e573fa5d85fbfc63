/**
 * "Save as defaults": the values set in the studio become the declared defaults, written into
 * `data-composition-variables` as the smallest edit: only the `default` members that change are
 * replaced inside the JSON (jsonc-parser gives their spans), so the author's layout of the JSON
 * and of the rest of the file stays.
 */
import { SeekframeError } from '@seekframe/composition';
import { findNodeAtLocation, modify, parseTree, applyEdits as applyJsonEdits, type Edit } from 'jsonc-parser';
import { applyEdits, attributeValueSpan, elementsOf, type TextEdit } from './source-edit.js';

const ATTRIBUTE = 'data-composition-variables';

/** `html` with the declared defaults of `values`' variables set to those values. */
export function setVariableDefaults(html: string, values: Record<string, unknown>, file: string): string {
  const element = elementsOf(html).find((el) => el.attrs.some((a) => a.name === ATTRIBUTE));
  const refuse = (why: string): never => {
    throw new SeekframeError('invalid-edit', `${file}: ${why}`, { stage: 'serve', details: { file, attribute: ATTRIBUTE } });
  };
  if (!element) return refuse(`has no ${ATTRIBUTE} to write defaults into.`);
  const decoded = element.attrs.find((a) => a.name === ATTRIBUTE)?.value ?? '';
  const span = attributeValueSpan(html, element, ATTRIBUTE);
  if (!span) return refuse(`${ATTRIBUTE} has no value.`);
  const tree = parseTree(decoded);
  if (!tree || tree.type !== 'array')
    return refuse(`${ATTRIBUTE} is not a JSON array of declarations; fix it first (seekframe lint says where).`);
  const ids = (tree.children ?? []).map((node) => findNodeAtLocation(node, ['id'])?.value as unknown);
  const jsonEdits: Edit[] = [];
  for (const [id, value] of Object.entries(values)) {
    const index = ids.indexOf(id);
    if (index < 0) return refuse(`declares no variable "${id}".`);
    const current = findNodeAtLocation(tree, [index, 'default']);
    if (current && JSON.stringify(current.value) === JSON.stringify(value)) continue;
    jsonEdits.push(
      ...(current
        ? [{ offset: current.offset, length: current.length, content: JSON.stringify(value) }]
        : modify(decoded, [index, 'default'], value, { formattingOptions: { insertSpaces: true, tabSize: 2 } })),
    );
  }
  if (jsonEdits.length === 0) return html;
  const raw = html.slice(span.start, span.end);
  const escape = (text: string): string => {
    const q = span.quote || '"';
    return text.replace(/&/g, '&amp;').replace(q === '"' ? /"/g : /'/g, q === '"' ? '&quot;' : '&#39;');
  };
  // Written without entities: each JSON edit is an edit of the file at the same offset.
  if (raw === decoded && span.quote) {
    const edits: TextEdit[] = jsonEdits.map((e) => ({
      start: span.start + e.offset,
      end: span.start + e.offset + e.length,
      text: escape(e.content),
    }));
    return applyEdits(html, edits);
  }
  // Entities or no quotes: the attribute's value is written again (and only it).
  const text = escape(applyJsonEdits(decoded, jsonEdits));
  return applyEdits(html, [{ start: span.start, end: span.end, text: span.quote ? text : `"${text}"` }]);
}
