import { cancelledError } from '@seekframe/composition/errors';

/**
 * SIGINT (Ctrl-C) and SIGTERM (kill, timeout, systemd, a container stop) for the whole CLI
 * process, caught from its very start: bin/seekframe.js calls this before it loads the rest of
 * the CLI, which takes a few hundred ms on an idle machine and seconds on a busy one. Without it
 * a signal in that time ended the process by the signal, with no message. So this module loads
 * nothing but Node and the (import-free) error type.
 *
 * - First signal while the CLI still loads (before a command started): nothing has been started
 *   yet, so nothing needs cleaning up. A render says it was cancelled and exits 1 at once; any
 *   other command ends by the signal, as if it had never been caught.
 * - First signal once the command runs: `signal` is aborted. A command that winds down on it
 *   (a render, `keep()`) stops its browsers and ffmpeg, removes its partial output and temp
 *   folders, says so and exits 1. Any other command got the default effect back (`release()`).
 * - Second signal while the command winds down: no more waiting. The cleanup given to
 *   `onForcedExit` runs synchronously (kill what is left, remove temp outputs and folders), then
 *   the process exits with 130 (SIGINT) or 143 (SIGTERM).
 */
export interface StopSignals {
  /** Aborted at the first SIGINT or SIGTERM; its reason's message says which. */
  readonly signal: AbortSignal;
  /** The running command winds down on `signal` itself: keep catching the signals. */
  keep(): void;
  /** Synchronous cleanup for a second signal (nothing may wait then); the last one given counts. */
  onForcedExit(cleanup: (signal: NodeJS.Signals) => void): void;
  /**
   * Stops catching: the signals have their default effect again. One already received that no
   * command kept is delivered again now, so the process ends by it as it would have.
   */
  release(): void;
}

const REASONS = { SIGINT: 'interrupted (Ctrl-C)', SIGTERM: 'stopped (SIGTERM)' } as const;
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Whether the command line runs a render that winds down on a stop itself (`seekframe render …`,
 * not `--docker`, whose container does, and `seekframe still`): main keeps the signals for exactly these.
 */
export function windsDownOnStop(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  const command = args.find((arg) => !arg.startsWith('-'));
  return (command === 'render' && !args.includes('--docker')) || command === 'still';
}

export function listenForStops(argv: readonly string[] = process.argv): StopSignals {
  const controller = new AbortController();
  let received: NodeJS.Signals | undefined;
  let kept = false;
  let started = false;
  let forced: ((signal: NodeJS.Signals) => void) | undefined;
  let listening = true;

  const handle = (signal: 'SIGINT' | 'SIGTERM'): void => {
    if (received === undefined) {
      received = signal;
      controller.abort(new Error(REASONS[signal]));
      if (!started) stopWhileLoading(argv, controller.signal, () => release());
      return;
    }
    try {
      forced?.(signal);
    } finally {
      process.exit(EXIT_CODES[signal]);
    }
  };
  const onInterrupt = (): void => handle('SIGINT');
  const onTerminate = (): void => handle('SIGTERM');
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);

  const release = (): void => {
    started = true;
    // A render that wound down on a first signal may still take up to a second to exit (bin's
    // exitSoon); a second signal in that window still means "stop at once", not a death by the
    // signal's default effect, so the handlers stay. Node never waits for signal handlers to exit.
    if (!listening || (kept && received !== undefined)) return;
    listening = false;
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
    if (received !== undefined && !kept) process.kill(process.pid, received);
  };
  return {
    signal: controller.signal,
    keep() {
      started = true;
      kept = true;
    },
    onForcedExit(cleanup) {
      forced = cleanup;
    },
    release,
  };
}

/**
 * A stop before any command started. A render has nothing to clean up yet: it prints what it
 * prints when stopped later (reportError's line: JSON with --json) and exits 1 now, instead of
 * loading the rest of the CLI first. Anything else ends by the signal (`byDefault`).
 */
function stopWhileLoading(argv: readonly string[], signal: AbortSignal, byDefault: () => void): void {
  if (!windsDownOnStop(argv)) return byDefault();
  const error = cancelledError(signal);
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify({ type: 'error', error: error.toJSON() })}\n`);
  else process.stderr.write(`error ${error.message}\n`);
  process.exit(1);
}

/** What a render says when it was stopped twice: the partial output and temp folders are gone all the same. */
export function forcedStopMessage(first: AbortSignal, signal: NodeJS.Signals): string {
  const reason = first.reason instanceof Error ? first.reason.message : 'stopped';
  return `The render was cancelled (${reason}, then ${signal} again: stopped at once); no output was written.`;
}
