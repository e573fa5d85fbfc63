import type { Command } from 'commander';
import { createContext, createProgram, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, readVersion, type StopSignals } from 'seekframe';
import { generatedNotice } from './generated-notice.js';

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
  const helps = await commandHelps();
  const commands = helps.filter((h) => h.path.length > 0);
  const lines = [
    '---',
    'title: "CLI reference"',
    'description: "Every seekframe command, flag, default and range, as --help prints it."',
    '---',
    '',
    generatedNotice('the commander definitions in core/cli/src/commands'),
    '',
    '# CLI reference',
    '',
    'Each section below is exactly what `seekframe <command> --help` prints. Exit codes:',
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
    lines.push(
      `## ${path.length ? `seekframe ${path.join(' ')}` : 'seekframe'} {#${anchor(path)}}`,
      '',
      '```text',
      help.trimEnd(),
      '```',
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

export function anchor(path: string[]): string {
  return ['seekframe', ...path].join('-');
}

/** The flags a help text lists (`-o, --output <path>` gives `-o` and `--output`). */
export function flagsIn(help: string): string[] {
  const options = help.split(/\n(?=Options:)/)[1]?.split(/\n\n/)[0] ?? '';
  return [...options.matchAll(/^ {2}((?:-[a-zA-Z], )?--[a-z][a-z0-9-]*)/gm)].flatMap((m) => m[1]!.split(', '));
}
