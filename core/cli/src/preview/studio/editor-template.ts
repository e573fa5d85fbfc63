/**
 * Fills an editor link or command template (`{file}`, `{line}`, `{column}`). Shared by the
 * server (which checks a configured template) and the page (which fills it per element); pure,
 * so it runs in both.
 */
export function fillEditorTemplate(template: string, at: { file: string; line: number; column: number }, kind: 'url' | 'command'): string {
  const file = kind === 'url' ? encodeURI(at.file).replace(/[?#&]/g, encodeURIComponent) : shellQuote(at.file);
  return template.replace(/\{(file|line|column)\}/g, (_, name: string) =>
    name === 'file' ? file : String(name === 'line' ? at.line : at.column),
  );
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
