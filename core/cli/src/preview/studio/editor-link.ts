/**
 * How the inspector offers to open a source location in the user's editor: a link with an
 * editor's URL scheme (the browser hands it to the OS), or a command line to copy for terminal
 * editors. The server only decides which; it never starts an editor or any other program.
 */
import type { EditorChoice, EditorInfo } from './studio-types.js';

export type { EditorChoice, EditorInfo };

const VSCODE_LIKE = (scheme: string): string => `${scheme}://file{file}:{line}:{column}`;

/** Editors with a URL scheme that opens a file at a line. */
const URL_EDITORS: Record<string, { name: string; url: string }> = {
  code: { name: 'VS Code', url: VSCODE_LIKE('vscode') },
  'code-insiders': { name: 'VS Code Insiders', url: VSCODE_LIKE('vscode-insiders') },
  codium: { name: 'VSCodium', url: VSCODE_LIKE('vscodium') },
  cursor: { name: 'Cursor', url: VSCODE_LIKE('cursor') },
  windsurf: { name: 'Windsurf', url: VSCODE_LIKE('windsurf') },
  zed: { name: 'Zed', url: 'zed://file{file}:{line}:{column}' },
  subl: { name: 'Sublime Text', url: 'subl://open?url=file://{file}&line={line}&column={column}' },
  sublime_text: { name: 'Sublime Text', url: 'subl://open?url=file://{file}&line={line}&column={column}' },
  mate: { name: 'TextMate', url: 'txmt://open?url=file://{file}&line={line}&column={column}' },
};

/** Terminal editors: the command that opens the file at the line, to copy into a terminal. */
const TERMINAL_EDITORS: Record<string, string> = {
  vi: 'vi +{line} {file}',
  vim: 'vim +{line} {file}',
  nvim: 'nvim +{line} {file}',
  nano: 'nano +{line},{column} {file}',
  emacs: 'emacs +{line}:{column} {file}',
  emacsclient: 'emacsclient +{line}:{column} {file}',
  micro: 'micro {file}:{line}:{column}',
  hx: 'hx {file}:{line}:{column}',
  helix: 'helix {file}:{line}:{column}',
  kak: 'kak +{line}:{column} {file}',
};

const REFUSED_SCHEMES = /^(javascript|data|vbscript|file|blob):/i;

/** `"/usr/bin/code --wait"` -> `code`; `C:\\...\\Code.exe` -> `code`. */
function commandName(value: string): string {
  const first = value.trim().split(/\s+/)[0] ?? '';
  return (first.split(/[\\/]/).pop() ?? '').replace(/\.(exe|cmd|bat)$/i, '').toLowerCase();
}

/**
 * Picks the editor from the environment: `SEEKFRAME_EDITOR_URL` (a template), else `$VISUAL`,
 * else `$EDITOR`, else VS Code when `code` is on the PATH. A terminal editor gives a command to
 * copy, and a link too when `code` is on the PATH. `onPath` looks a command up (no execution).
 */
export function chooseEditor(env: Record<string, string | undefined>, onPath: (command: string) => boolean): EditorInfo {
  const configured = env.SEEKFRAME_EDITOR_URL?.trim();
  let problem: string | undefined;
  if (configured) {
    if (!configured.includes('{file}'))
      problem = `SEEKFRAME_EDITOR_URL must contain {file} (and may use {line}, {column}), e.g. vscode://file{file}:{line}:{column}; it is ignored`;
    else if (!/^[a-z][a-z0-9+.-]*:/i.test(configured) || REFUSED_SCHEMES.test(configured))
      problem = `SEEKFRAME_EDITOR_URL must be an editor URL such as vscode://file{file}:{line}:{column} (not javascript:, data:, file: or a bare path); it is ignored`;
    else return { editor: { name: 'your editor', url: configured, command: null, from: 'SEEKFRAME_EDITOR_URL' } };
  }
  const withProblem = (editor: EditorChoice | null): EditorInfo => (problem ? { editor, problem } : { editor });
  const codeLink = onPath('code') ? URL_EDITORS.code!.url : null;
  for (const from of ['VISUAL', 'EDITOR'] as const) {
    const value = env[from];
    if (!value?.trim()) continue;
    const name = commandName(value);
    const known = URL_EDITORS[name];
    if (known) return withProblem({ name: known.name, url: known.url, command: null, from });
    const command = TERMINAL_EDITORS[name] ?? `${value.trim()} {file}`;
    return withProblem({ name, url: codeLink, command, from });
  }
  if (codeLink) return withProblem({ name: 'VS Code', url: codeLink, command: null, from: 'PATH' });
  return withProblem(null);
}
