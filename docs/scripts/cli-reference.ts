import type { Command } from 'commander';
import { createContext, createProgram, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, readVersion, type StopSignals } from 'seekframe';
import { COMMAND_GUIDES, FLAG_GUIDES } from './cli-flag-guides.js';
import { generatedNotice } from './generated-notice.js';
import { cell } from './markdown-table.js';

/** Width the reference is wrapped at: what `--help` prints when stdout is not a terminal. */
export const HELP_WIDTH = 80;

export interface CommandHelp {
  /** Words after `seekframe`, e.g. `['lambda', 'render']`; `[]` for the program itself. */
  path: string[];
  /** Exactly what `seekframe <path> --help` prints (at HELP_WIDTH columns). */
  help: string;
}

/** The real program, with every command registered, never run: its definitions are the reference. */
async function program(): Promise<Command> {
  const silent = { write: () => true, isTTY: false };
  // Never stopped: the program is only read, not run.
  const stops: StopSignals = { signal: new AbortController().signal, keep() {}, onForcedExit() {}, release() {} };
  const ctx = createContext({ stdout: silent, stderr: silent, cwd: process.cwd(), env: {} }, readVersion(), stops);
  return createProgram(ctx);
}

function walk(command: Command, path: string[]): CommandHelp[] {
  command.configureHelp({ ...command.configureHelp(), helpWidth: HELP_WIDTH });
  const own: CommandHelp = { path, help: command.helpInformation() };
  return [own, ...command.commands.filter((c) => c.name() !== 'help').flatMap((c) => walk(c, [...path, c.name()]))];
}

/** Every command's help text, the program's first, in the order `seekframe --help` lists them. */
export async function commandHelps(): Promise<CommandHelp[]> {
  return walk(await program(), []);
}

export async function cliReference(): Promise<string> {
  const prog = await program();
  const helps = await commandHelps();
  const commands = helps.filter((h) => h.path.length > 0);
  const lines = [
    '---',
    'title: "CLI reference"',
    'description: "Every seekframe command and flag: its value, default, environment variable and the guide that explains it, and the exact --help."',
    '---',
    '',
    generatedNotice('the commander definitions in core/cli/src/commands'),
    '',
    '# CLI reference',
    '',
    'Every command with its flags, one anchor per flag (`#seekframe-render--fps`), then exactly what',
    '`seekframe <command> --help` prints. Exit codes:',
    `\`${EXIT_OK}\` ok, \`${EXIT_FAILURE}\` findings or a failed render, \`${EXIT_USAGE}\` a usage error (unknown flag, bad value).`,
    'With `--json` a command prints only JSON, and an error becomes one line',
    '`{"type":"error","error":{"code","message","stage","retryable"}}` (codes: [Error codes](./errors.md)).',
    '`SEEKFRAME_DEBUG=1` adds the stack to an error; colour follows `NO_COLOR` / `FORCE_COLOR` and turns off when',
    'the output is not a terminal.',
    '',
    'Commands:',
    '',
    ...commands.map((c) => `- [\`seekframe ${c.path.join(' ')}\`](#${anchor(c.path)})`),
    '',
  ];
  for (const { path, help } of helps) {
    const command = find(prog, path);
    lines.push(`## ${path.length ? `seekframe ${path.join(' ')}` : 'seekframe'} {#${anchor(path)}}`, '');
    if (command.description()) lines.push(`${capitalise(command.description()).replace(/([^.])$/, '$1.')}`, '');
    const guide = COMMAND_GUIDES[path.join(' ')];
    if (guide) lines.push(`Guide: [${guideName(guide)}](${guide}).`, '');
    lines.push(...argumentTable(command), ...flagTable(command, path));
    lines.push('<details><summary>As <code>--help</code> prints it</summary>', '', '```text', help.trimEnd(), '```', '', '</details>', '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function find(command: Command, path: string[]): Command {
  let current = command;
  for (const word of path) {
    const next = current.commands.find((c) => c.name() === word);
    if (!next) throw new Error(`no command seekframe ${path.join(' ')}`);
    current = next;
  }
  return current;
}

function argumentTable(command: Command): string[] {
  const args = command.registeredArguments;
  if (args.length === 0) return [];
  const rows = args.map((arg) => {
    const name = arg.required ? `<${arg.name()}>` : `[${arg.name()}]`;
    const fallback = arg.defaultValue === undefined ? (arg.required ? 'required' : '—') : `\`${String(arg.defaultValue)}\``;
    return `| \`${name}\` | ${fallback} | ${cell(escapeHtml(arg.description))} |`;
  });
  return ['| argument | default | what it is |', '|---|---|---|', ...rows, ''];
}

/** `PRODUCER_MAX_FRAMES`, `PORT`, `SEEKFRAME_LAMBDA_BUCKET`: the variables a flag's text names. */
const ENV_NAME = /\b(PORT|[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9])\b/g;

/**
 * The default a description states: `(default 2)`, `(render-timeout; default: no limit)`,
 * `…; default auto`, or `open (default) or sandboxed` (the choice it follows). A switch whose own
 * text ends in `(default)` is on by default.
 */
function statedDefault(description: string, takesValue: boolean): string | undefined {
  const stated = /\((?:[^()]*;\s*)?default:? ([^()]+?)\)|[;,] default:? ([^;,()]+)$/.exec(description);
  if (stated) return (stated[1] ?? stated[2])!.trim();
  const marked = /(?:^|[;:,]\s*)([^;:,()]+?) \(default\)/.exec(description);
  if (!marked) return undefined;
  if (!takesValue) return 'on';
  return marked[1]!.trim().split(' ').length <= 3 ? marked[1]!.trim() : undefined;
}

function flagTable(command: Command, path: string[]): string[] {
  const options = command.options.filter((option) => !option.hidden);
  if (options.length === 0) return [];
  const rows = options.map((option) => {
    const flag = option.long ?? option.short ?? option.flags;
    const id = `${anchor(path)}-${flag.replace(/^-+/, '-')}`;
    const names = [option.short, option.long].filter(Boolean).join(', ');
    const value = /<[^>]+>|\[[^\]]+\]/.exec(option.flags)?.[0];
    const fallback =
      option.defaultValue !== undefined && !option.negate
        ? `\`${String(option.defaultValue)}\``
        : (statedDefault(option.description, Boolean(value)) ?? '—');
    const env = option.envVar ? [option.envVar] : [...new Set([...option.description.matchAll(ENV_NAME)].map((m) => m[1]!))];
    const guide = FLAG_GUIDES[`${path.join(' ')} ${flag}`] ?? COMMAND_GUIDES[path.join(' ')];
    const choices = option.argChoices ? `: one of ${option.argChoices.map((c) => `\`${c}\``).join(', ')}.` : '';
    return [
      `<code id="${id}">${escapeHtml(names)}</code>`,
      value ? `\`${value}\`` : '',
      cell(escapeHtml(fallback)),
      env.map((name) => `\`${name}\``).join(', ') || '—',
      `${cell(escapeHtml(option.description))}${choices}${guide ? ` [Guide](${guide})` : ''}`,
    ];
  });
  return [
    '| flag | value | default | environment | what it does |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
  ];
}

function guideName(link: string): string {
  const page = link.split('#')[0]!.split('/').pop()!.replace(/\.md$/, '');
  return page.replace(/-/g, ' ');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function anchor(path: string[]): string {
  return ['seekframe', ...path].join('-');
}

/** The flags a help text lists (`-o, --output <path>` gives `-o` and `--output`). */
export function flagsIn(help: string): string[] {
  const options = help.split(/\n(?=Options:)/)[1]?.split(/\n\n/)[0] ?? '';
  return [...options.matchAll(/^ {2}((?:-[a-zA-Z], )?--[a-z][a-z0-9-]*)/gm)].flatMap((m) => m[1]!.split(', '));
}
