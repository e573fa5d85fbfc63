/**
 * A CSS selector that finds `el` again in its own document, short enough to read in a message:
 * `#title` when the id is unique, else a `>` path of `tag.class:nth-of-type(n)` steps up to the
 * nearest ancestor with a unique id (or `<body>`). Findings of `seekframe check` and the render
 * report name elements this way, so a person or an agent can paste it into `querySelector`.
 */
export function cssPath(el: Element): string {
  const doc = el.ownerDocument;
  const steps: string[] = [];
  let node: Element | null = el;
  while (node) {
    const id = uniqueId(node, doc);
    if (id) {
      steps.unshift(id);
      break;
    }
    if (node === doc.body || node === doc.documentElement) {
      steps.unshift(node.tagName.toLowerCase());
      break;
    }
    steps.unshift(step(node));
    node = node.parentElement;
  }
  return steps.join(' > ');
}

function uniqueId(el: Element, doc: Document): string | undefined {
  if (!el.id) return undefined;
  const selector = `#${CSS.escape(el.id)}`;
  return doc.querySelectorAll(selector).length === 1 ? selector : undefined;
}

function step(el: Element): string {
  const tag = el.tagName.toLowerCase();
  const firstClass = [...el.classList].find((c) => !c.startsWith('seekframe'));
  let text = firstClass ? `${tag}.${CSS.escape(firstClass)}` : tag;
  const parent = el.parentElement;
  if (parent) {
    const sameTag = [...parent.children].filter((c) => c.tagName === el.tagName);
    if (sameTag.length > 1) text += `:nth-of-type(${sameTag.indexOf(el) + 1})`;
  }
  return text;
}
