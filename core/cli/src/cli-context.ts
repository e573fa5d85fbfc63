import pc from 'picocolors';
import type { StopSignals } from './listen-for-stops.js';

/** Where a command writes. `process.stdout` fits; tests pass a buffer with the same shape. */
export interface OutputStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * What every command gets besides its parsed arguments. Commands write through this object
 * (never `console`/`process` directly) so `main()` runs in-process in tests and honours NO_COLOR.
 */
export interface CliContext extends CliIo {
  /** Colors for human output; plain strings when NO_COLOR is set or stdout is not a terminal. */
  colors: Colors;
  /** 0 ok, 1 findings or failure. A command sets it; thrown errors are mapped by `main`. */
  exitCode: number;
  /** One line of human output on stdout. */
  print(line?: string): void;
  /** One line of diagnostics on stderr (progress notes, warnings). */
  note(line: string): void;
  /** `--json` for a one-shot command: one pretty-printed JSON document on stdout. */
  printJson(value: unknown): void;
  /** `--json` for an event stream (render, errors): one compact JSON object per stdout line. */
  printJsonLine(value: unknown): void;
  /** CLI version from package.json. */
  version: string;
  /** SIGINT/SIGTERM, caught since the process started (listen-for-stops.ts). */
  stops: StopSignals;
}

/** NO_COLOR (https://no-color.org) wins, then FORCE_COLOR, then whether stdout is a terminal. */
export function colorEnabled(env: NodeJS.ProcessEnv, stdout: OutputStream): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0';
  return stdout.isTTY === true && env.TERM !== 'dumb';
}

export function createContext(io: CliIo, version: string, stops: StopSignals): CliContext {
  return {
    ...io,
    version,
    stops,
    colors: pc.createColors(colorEnabled(io.env, io.stdout)),
    exitCode: 0,
    print(line = '') {
      io.stdout.write(`${line}\n`);
    },
    note(line) {
      io.stderr.write(`${line}\n`);
    },
    printJson(value) {
      io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    printJsonLine(value) {
      io.stdout.write(`${JSON.stringify(value)}\n`);
    },
  };
}
