/** The few DOM helpers the preview page uses (no framework: the page stays a few tens of kB). */

export function element<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the preview page has no #${id}`);
  return found as T;
}

type Child = Node | string | null | undefined | false;

/** `h('li', { className: 'error', dataset: { rule: 'x' } }, 'text', child)`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Omit<HTMLElementTagNameMap[K], 'dataset' | 'style'>> & {
    dataset?: Record<string, string>;
    attrs?: Record<string, string>;
  } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  const { dataset, attrs, ...rest } = props;
  Object.assign(el, rest);
  for (const [key, value] of Object.entries(dataset ?? {})) el.dataset[key] = value;
  for (const [key, value] of Object.entries(attrs ?? {})) el.setAttribute(key, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/** True when a key press belongs to the focused control (typing, choosing), not to the studio. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'range', 'color'].includes(target.type);
  return (
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLElement && target.isContentEditable)
  );
}
