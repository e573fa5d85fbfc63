import { h } from './dom.js';

/** One finding of `lint.json` (the `seekframe lint --json` report). */
export interface Finding {
  file: string;
  line: number;
  column: number;
  severity: string;
  rule: string;
  message: string;
}

export function findingItem(f: Finding): HTMLLIElement {
  return h(
    'li',
    { className: f.severity, dataset: { rule: f.rule } },
    `${f.file}:${f.line}:${f.column} ${f.severity} ${f.rule}: ${f.message}`,
  );
}

/** The project's lint findings, or a line saying there are none. */
export function showLint(list: HTMLElement, findings: readonly Finding[]): void {
  const items = findings.map(findingItem);
  list.replaceChildren(...(items.length > 0 ? items : [h('li', { className: 'ok' }, 'No lint problems.')]));
}
